import { PLAYGROUND_API_BASE } from "@/lib/contract/playground";
import { linkAnchors, operationRowIds, sectionPath } from "@/lib/reference/anchors";
import { withOrigin } from "@/lib/reference/markdown";
import { DOCS_PATH, OPENAPI_PATH, sectionMarkdownPath, type SectionSlug } from "@/lib/reference/sections";
import { curlSnippet, fetchSnippet, tryItRequest } from "@/lib/reference/snippets";
import { groupResponses, type Block, type DocsModel, type ErrorDoc, OPERATOR_ACCESS, type FieldRow, type OperationDoc, type ParamDoc, type SectionDoc } from "@/lib/reference/types";
import { AnchorRedirect } from "./AnchorRedirect";
import { CopyButton } from "./CopyButton";
import { DocsHighlight } from "./DocsHighlight";
import { DocsSidebar, type SidebarGroup } from "./DocsSidebar";
import { Inline } from "./Inline";
import { TryIt } from "./TryIt";
import styles from "./docs.module.css";

// /docs and /docs/<section>: the reference rendered from the docs model on the server, a section
// per page so none is too heavy for a phone. Only the search, the copy buttons, "try it" and the
// redirect of old single-page anchors run in the browser.

interface Ctx {
  origin: string;
  scenarios: readonly string[];
  /** Where each anchor lives, so a `#anchor` in prose reaches the page that holds it. */
  anchors: Record<string, SectionSlug>;
}

function Blocks({ blocks, ctx, idPrefix }: { blocks: Block[]; ctx: Ctx; idPrefix: string }) {
  const prose = (text: string) => linkAnchors(withOrigin(text, ctx.origin), ctx.anchors);
  return blocks.map((b, i) => {
    switch (b.kind) {
      case "p":
        return (
          <p key={i}>
            <Inline text={prose(b.text)} />
          </p>
        );
      case "h":
        return (
          <h2 key={i} id={b.id} className={styles.subheading}>
            {b.text}
            {b.id ? <AnchorLink anchor={b.id} label={b.text} /> : null}
          </h2>
        );
      case "list":
        return (
          <ul key={i}>
            {b.items.map((item, j) => (
              <li key={j}>
                <Inline text={prose(item)} />
              </li>
            ))}
          </ul>
        );
      case "code":
        return <CodeBlock key={i} id={`${idPrefix}-code-${i}`} lang={b.lang} label={b.label} text={withOrigin(b.text, ctx.origin)} />;
      case "table":
        return (
          <table key={i} className={styles.table}>
            <caption>{b.caption}</caption>
            <thead>
              <tr>
                {b.head.map((h) => (
                  <th key={h} scope="col">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {b.rows.map((row, j) => (
                <tr key={j}>
                  {row.map((c, k) => (
                    <td key={k} data-label={b.head[k]}>
                      <Inline text={linkAnchors(c, ctx.anchors)} />
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        );
    }
  });
}

function AnchorLink({ anchor, label }: { anchor: string; label: string }) {
  return (
    <a className={styles.anchor} href={`#${anchor}`} aria-label={`Link to ${label}`}>
      #
    </a>
  );
}

function CodeBlock({ id, lang, label, text }: { id: string; lang: string; label: string; text: string }) {
  return (
    <figure className={styles.codeFigure}>
      <figcaption className={styles.codeCaption}>
        <span>{label}</span>
        <CopyButton targetId={id} label={`Copy: ${label}`} />
      </figcaption>
      <pre className={styles.code} data-lang={lang}>
        <code id={id}>{text}</code>
      </pre>
    </figure>
  );
}

const yesNo = (b: boolean) => (b ? "yes" : "no");

/** Long field paths wrap between their parts, never inside a name. */
function BreakAtDots({ text }: { text: string }) {
  return text.split(".").flatMap((part, i) => (i === 0 ? [part] : [<wbr key={i} />, `.${part}`]));
}

function ParamsTable({ caption, params, ids }: { caption: string; params: ParamDoc[]; ids: string[] }) {
  return (
    <table className={`${styles.table} ${styles.paramsTable}`}>
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col" className={styles.colIn}>
            In
          </th>
          <th scope="col">Type</th>
          <th scope="col">Required</th>
          <th scope="col">Limits</th>
          <th scope="col">Notes</th>
        </tr>
      </thead>
      <tbody>
        {params.map((p, i) => (
          <tr key={`${p.in}-${p.name}`} id={ids[i]} data-param={p.name}>
            <th scope="row">
              <code>{p.name}</code>
            </th>
            <td className={styles.colIn}>
              {p.in}
            </td>
            <td>
              <code>{p.type}</code>
            </td>
            <td>{yesNo(p.required)}</td>
            <td>
              <Inline text={p.limits} />
            </td>
            <td>
              <Inline text={p.notes} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function FieldTable({ caption, fields, ids }: { caption: string; fields: FieldRow[]; ids: string[] | undefined }) {
  return (
    <table className={`${styles.table} ${styles.fieldsTable}`}>
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Field</th>
          <th scope="col">Type</th>
          <th scope="col">Nullable</th>
          <th scope="col">Required</th>
          <th scope="col">Notes</th>
        </tr>
      </thead>
      <tbody>
        {fields.map((f, i) => (
          <tr key={f.name} id={ids?.[i]} data-field={f.name}>
            <th scope="row">
              <code className={styles.fieldName}>
                <BreakAtDots text={f.name} />
              </code>
            </th>
            <td>
              <code>{f.type}</code>
            </td>
            <td>{yesNo(f.nullable)}</td>
            <td>{yesNo(f.required)}</td>
            <td>
              <Inline text={f.notes} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function ErrorTable({ caption, errors, ids }: { caption: string; errors: ErrorDoc[]; ids: string[] }) {
  return (
    <table className={`${styles.table} ${styles.errorsTable}`}>
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Status</th>
          <th scope="col">
            <code>error</code>
          </th>
          <th scope="col">Meaning</th>
        </tr>
      </thead>
      <tbody>
        {errors.map((e, i) => (
          <tr key={e.code} id={ids[i]} data-error-code={e.code}>
            <td>{e.status}</td>
            <th scope="row">
              <code>{e.code}</code>
            </th>
            <td>
              <Inline text={e.description} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const securityText: Record<OperationDoc["security"], string> = {
  session: "Sign-in: the session cookie; 401 `unauthorized` without it.",
  "session-same-origin": "Sign-in: the session cookie, from the person's own page on this site, with its CSRF token.",
  none: "Sign-in: none; public.",
  operator: OPERATOR_ACCESS,
  unstated: "",
};

function Operation({ op, ctx }: { op: OperationDoc; ctx: Ctx }) {
  const title = `${op.method} ${op.path}`;
  const headingId = `${op.anchor}-title`;
  const pathParams = op.params.filter((p) => p.in === "path");
  const otherParams = op.params.filter((p) => p.in !== "path");
  const js = fetchSnippet(op);
  const sh = curlSnippet(op, ctx.origin);
  const tryIt = tryItRequest(op);
  const ids = operationRowIds(op);
  // Params keep the model's order in the ids; the two tables show path values apart.
  const paramId = (p: ParamDoc) => ids.params[op.params.indexOf(p)] ?? "";
  return (
    <article id={op.anchor} className={styles.operation} aria-labelledby={headingId} data-operation={op.operationId} data-registry-id={op.registryId}>
      <h2 id={headingId} className={styles.opTitle}>
        <span className={`${styles.method} ${op.method === "GET" ? styles.get : styles.post}`}>{op.method}</span> <code>{op.path}</code>
        <AnchorLink anchor={op.anchor} label={title} />
      </h2>
      <p className={styles.summary}>
        <Inline text={`${op.summary}.`} />
      </p>
      {op.base === "api" ? (
        <p className="muted">
          Relative to the API base: <code>/api</code>, or <code>{PLAYGROUND_API_BASE}</code> in the playground.
        </p>
      ) : null}
      <Blocks blocks={op.description} ctx={ctx} idPrefix={op.anchor} />
      {securityText[op.security] ? (
        <p>
          <Inline text={securityText[op.security]} />
        </p>
      ) : null}
      {pathParams.length ? <ParamsTable caption="Path parameters" params={pathParams} ids={pathParams.map(paramId)} /> : null}
      {otherParams.length ? (
        <ParamsTable
          caption={otherParams.some((p) => p.in === "header") ? "Query parameters and headers" : "Query parameters"}
          params={otherParams}
          ids={otherParams.map(paramId)}
        />
      ) : null}
      {op.requestBodies.map((b, i) =>
        b.fields.length ? (
          <FieldTable key={b.contentType} caption={`Request body (${b.contentType}): ${b.description}`} fields={b.fields} ids={ids.requestBodies[i]} />
        ) : (
          <p key={b.contentType}>
            Request body (<code>{b.contentType}</code>): {b.description}
          </p>
        ),
      )}
      {groupResponses(op.responses).map(({ statuses, response: r }, i) => {
        const status = statuses.join(" or ");
        const what = statuses.length > 1 ? op.responses.map((x) => `${x.status}: ${x.description}`).join("; ") : r.description;
        return r.fields.length ? (
          <div key={status}>
            {statuses.length > 1 ? (
              <p>
                <Inline text={`${what}.`} />
              </p>
            ) : null}
            <FieldTable caption={`Response ${status} (${r.contentType}): fields`} fields={r.fields} ids={ids.responses[i]} />
          </div>
        ) : (
          <p key={status}>
            Response {status} (<code>{r.contentType}</code>): <Inline text={what} />.
          </p>
        );
      })}
      {op.errors.length ? <ErrorTable caption="Errors (body: the error envelope)" errors={op.errors} ids={ids.errors} /> : null}
      {op.example ? (
        <figure className={styles.codeFigure}>
          <figcaption className={styles.codeCaption}>
            <span>
              Example: <code>GET {op.example.request}</code>, answered by the demo data ({op.example.status})
              {op.example.shortened ? "; lists cut to their first items" : ""}
            </span>
          </figcaption>
          <pre className={styles.code} data-example-for={op.registryId}>
            <code>{JSON.stringify(op.example.body, null, 2)}</code>
          </pre>
        </figure>
      ) : null}
      {js ? <CodeBlock id={`${op.anchor}-fetch`} lang="js" label={`fetch: ${title}`} text={js} /> : null}
      {sh ? <CodeBlock id={`${op.anchor}-curl`} lang="sh" label={`curl: ${title}`} text={sh} /> : null}
      {op.operationId === "saving.save" ? (
        <p className={styles.note}>No curl or fetch snippet: a save is refused unless it comes from the signed-in person&apos;s own page with its CSRF token.</p>
      ) : null}
      {tryIt ? <TryIt apiBase={PLAYGROUND_API_BASE} request={tryIt} label={title} scenarios={ctx.scenarios} /> : null}
    </article>
  );
}

function Section({ section, ctx }: { section: SectionDoc; ctx: Ctx }) {
  return (
    <section id={section.slug} aria-labelledby={`${section.slug}-title`} className={styles.section} data-section={section.slug}>
      <p className={styles.kicker}>
        <a href={DOCS_PATH}>API reference</a>
      </p>
      <h1 id={`${section.slug}-title`} className={styles.sectionTitle}>
        {section.title}
        <AnchorLink anchor={section.slug} label={section.title} />
      </h1>
      <p className={styles.mdLink}>
        <a href={sectionMarkdownPath(section.slug)}>{section.title} as Markdown</a>
      </p>
      <Blocks blocks={section.intro} ctx={ctx} idPrefix={section.slug} />
      {section.operations.map((op) => (
        <Operation key={op.anchor} op={op} ctx={ctx} />
      ))}
    </section>
  );
}

function sidebarGroups(model: DocsModel): SidebarGroup[] {
  return model.sections.map((s) => ({
    slug: s.slug,
    title: s.title,
    items: s.operations.map((o) => ({ anchor: o.anchor, method: o.method, path: o.path, summary: o.summary })),
  }));
}

interface PageProps {
  model: DocsModel;
  anchors: Record<string, SectionSlug>;
  /** The search index's version, so the page asks for the index it was built with. */
  searchVersion: string;
}

/** /docs/<section>: one section, with the contents of every section beside it. */
export function ReferenceSection({ model, section, origin, scenarios, anchors, searchVersion }: PageProps & { section: SectionDoc; origin: string; scenarios: readonly string[] }) {
  const ctx: Ctx = { origin, scenarios, anchors };
  return (
    <div className={styles.layout}>
      <DocsSidebar groups={sidebarGroups(model)} current={section.slug} searchVersion={searchVersion} />
      <div className={styles.content}>
        <Section section={section} ctx={ctx} />
        <SectionPager model={model} current={section.slug} />
      </div>
      <DocsHighlight />
    </div>
  );
}

function SectionPager({ model, current }: { model: DocsModel; current: SectionSlug }) {
  const at = model.sections.findIndex((s) => s.slug === current);
  const prev = model.sections[at - 1];
  const next = model.sections[at + 1];
  return (
    <nav aria-label="Sections" className={styles.pager}>
      {prev ? (
        <a href={sectionPath(prev.slug)} rel="prev">
          ← {prev.title}
        </a>
      ) : (
        <span />
      )}
      {next ? (
        <a href={sectionPath(next.slug)} rel="next">
          {next.title} →
        </a>
      ) : null}
    </nav>
  );
}

/** /docs: what the reference holds, a section per page; old `/docs#anchor` links move on to their section. */
export function ReferenceIndex({ model, anchors, searchVersion }: PageProps) {
  return (
    <div className={styles.layout}>
      <DocsSidebar groups={sidebarGroups(model)} current={null} searchVersion={searchVersion} />
      <div className={styles.content}>
        <h1>API reference</h1>
        <p className={styles.lead}>
          Every endpoint of the dashboard data service, with its fields, errors and an example from the demo data, generated from the contract. Also as{" "}
          <a href={OPENAPI_PATH}>OpenAPI 3.1</a> and as <a href={sectionMarkdownPath("index")}>Markdown</a> (or send <code>Accept: text/markdown</code> to{" "}
          <code>{DOCS_PATH}</code>).
        </p>
        <ol className={styles.sectionList}>
          {model.sections.map((s) => (
            <li key={s.slug} data-section-link={s.slug}>
              <h2>
                <a href={sectionPath(s.slug)}>{s.title}</a>
              </h2>
              <p>
                {s.summary.charAt(0).toUpperCase() + s.summary.slice(1)}.
                {s.operations.length ? ` ${s.operations.length} ${s.operations.length === 1 ? "endpoint" : "endpoints"}.` : ""}{" "}
                <a href={sectionMarkdownPath(s.slug)} aria-label={`${s.title} as Markdown`}>
                  Markdown
                </a>
              </p>
            </li>
          ))}
        </ol>
        <AnchorRedirect anchors={anchors} />
      </div>
    </div>
  );
}
