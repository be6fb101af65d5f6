import { PLAYGROUND_API_BASE } from "@/lib/contract/playground";
import { withOrigin } from "@/lib/docs/markdown";
import { DOCS_PATH, OPENAPI_PATH, sectionMarkdownPath } from "@/lib/docs/sections";
import { curlSnippet, fetchSnippet, tryItRequest } from "@/lib/docs/snippets";
import { groupResponses, type Block, type DocsModel, type ErrorDoc, OPERATOR_ACCESS, type FieldRow, type OperationDoc, type ParamDoc, type SectionDoc } from "@/lib/docs/types";
import { CopyButton } from "./CopyButton";
import { DocsSidebar, type SidebarGroup } from "./DocsSidebar";
import { Inline } from "./Inline";
import { TryIt } from "./TryIt";
import styles from "./docs.module.css";

// /docs: the reference rendered from the docs model on the server. Only the sidebar filter,
// copy buttons and "try it" run in the browser.

interface Ctx {
  origin: string;
  scenarios: readonly string[];
}

function Blocks({ blocks, origin, idPrefix }: { blocks: Block[]; origin: string; idPrefix: string }) {
  return blocks.map((b, i) => {
    switch (b.kind) {
      case "p":
        return (
          <p key={i}>
            <Inline text={withOrigin(b.text, origin)} />
          </p>
        );
      case "h":
        return (
          <h3 key={i} id={b.id} className={styles.subheading}>
            {b.text}
            {b.id ? <AnchorLink anchor={b.id} label={b.text} /> : null}
          </h3>
        );
      case "list":
        return (
          <ul key={i}>
            {b.items.map((item, j) => (
              <li key={j}>
                <Inline text={withOrigin(item, origin)} />
              </li>
            ))}
          </ul>
        );
      case "code":
        return <CodeBlock key={i} id={`${idPrefix}-code-${i}`} lang={b.lang} label={b.label} text={withOrigin(b.text, origin)} />;
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
                    <td key={k}>
                      <Inline text={c} />
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

function ParamsTable({ caption, params }: { caption: string; params: ParamDoc[] }) {
  return (
    <table className={styles.table}>
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
        {params.map((p) => (
          <tr key={`${p.in}-${p.name}`} data-param={p.name}>
            <th scope="row">
              <code>{p.name}</code>
            </th>
            <td className={styles.colIn}>{p.in}</td>
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

function FieldTable({ caption, fields }: { caption: string; fields: FieldRow[] }) {
  return (
    <table className={styles.table}>
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
        {fields.map((f) => (
          <tr key={f.name} data-field={f.name}>
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

function ErrorTable({ caption, errors }: { caption: string; errors: ErrorDoc[] }) {
  return (
    <table className={styles.table}>
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
        {errors.map((e) => (
          <tr key={e.code} data-error-code={e.code}>
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
  return (
    <article id={op.anchor} className={styles.operation} aria-labelledby={headingId} data-operation={op.operationId} data-registry-id={op.registryId}>
      <h3 id={headingId} className={styles.opTitle}>
        <span className={`${styles.method} ${op.method === "GET" ? styles.get : styles.post}`}>{op.method}</span> <code>{op.path}</code>
        <AnchorLink anchor={op.anchor} label={title} />
      </h3>
      <p className={styles.summary}>
        <Inline text={`${op.summary}.`} />
      </p>
      {op.base === "api" ? (
        <p className="muted">
          Relative to the API base: <code>/api</code>, or <code>{PLAYGROUND_API_BASE}</code> in the playground.
        </p>
      ) : null}
      <Blocks blocks={op.description} origin={ctx.origin} idPrefix={op.anchor} />
      {securityText[op.security] ? (
        <p>
          <Inline text={securityText[op.security]} />
        </p>
      ) : null}
      {pathParams.length ? <ParamsTable caption="Path parameters" params={pathParams} /> : null}
      {otherParams.length ? <ParamsTable caption={otherParams.some((p) => p.in === "header") ? "Query parameters and headers" : "Query parameters"} params={otherParams} /> : null}
      {op.requestBodies.map((b) =>
        b.fields.length ? (
          <FieldTable key={b.contentType} caption={`Request body (${b.contentType}): ${b.description}`} fields={b.fields} />
        ) : (
          <p key={b.contentType}>
            Request body (<code>{b.contentType}</code>): {b.description}
          </p>
        ),
      )}
      {groupResponses(op.responses).map(({ statuses, response: r }) => {
        const status = statuses.join(" or ");
        const what = statuses.length > 1 ? op.responses.map((x) => `${x.status}: ${x.description}`).join("; ") : r.description;
        return r.fields.length ? (
          <div key={status}>
            {statuses.length > 1 ? (
              <p>
                <Inline text={`${what}.`} />
              </p>
            ) : null}
            <FieldTable caption={`Response ${status} (${r.contentType}): fields`} fields={r.fields} />
          </div>
        ) : (
          <p key={status}>
            Response {status} (<code>{r.contentType}</code>): <Inline text={what} />.
          </p>
        );
      })}
      {op.errors.length ? <ErrorTable caption="Errors (body: the error envelope)" errors={op.errors} /> : null}
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
      <h2 id={`${section.slug}-title`}>
        {section.title}
        <AnchorLink anchor={section.slug} label={section.title} />
      </h2>
      <p className={styles.mdLink}>
        <a href={sectionMarkdownPath(section.slug)}>{section.title} as Markdown</a>
      </p>
      <Blocks blocks={section.intro} origin={ctx.origin} idPrefix={section.slug} />
      {section.operations.map((op) => (
        <Operation key={op.anchor} op={op} ctx={ctx} />
      ))}
    </section>
  );
}

/** The names a search should find an operation by: its parameters, every field it takes or returns, its error codes. */
function keywordsOf(op: OperationDoc): string[] {
  const names = new Set<string>();
  for (const p of op.params) names.add(p.name);
  for (const body of [...op.requestBodies, ...op.responses]) {
    for (const f of body.fields) for (const part of f.name.split(/[.[\]]+/)) if (part) names.add(part);
  }
  for (const e of op.errors) names.add(e.code);
  return [...names];
}

export function Reference({ model, origin, scenarios }: { model: DocsModel; origin: string; scenarios: readonly string[] }) {
  const ctx: Ctx = { origin, scenarios };
  const groups: SidebarGroup[] = model.sections.map((s) => ({
    slug: s.slug,
    title: s.title,
    items: s.operations.map((o) => ({ anchor: o.anchor, method: o.method, path: o.path, summary: o.summary, keywords: keywordsOf(o) })),
  }));
  return (
    <div className={styles.layout}>
      <DocsSidebar groups={groups} />
      <div className={styles.content}>
        <h1>API reference</h1>
        <p className={styles.lead}>
          Every endpoint of the dashboard data service, with its fields, errors and an example from the demo data, generated from the contract. Also as{" "}
          <a href={OPENAPI_PATH}>OpenAPI 3.1</a> and as <a href={sectionMarkdownPath("index")}>Markdown</a> (or send <code>Accept: text/markdown</code> to{" "}
          <code>{DOCS_PATH}</code>).
        </p>
        {model.sections.map((s) => (
          <Section key={s.slug} section={s} ctx={ctx} />
        ))}
      </div>
    </div>
  );
}
