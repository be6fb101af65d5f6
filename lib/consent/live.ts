import { readAllowed, type DraftReads } from "@/lib/check/reads";

// The one place that decides whether code may read this viewer's live data, and which paths.
//
// A dashboard can send out of the browser whatever it reads (docs/frame.md, the frame's
// residual channels), so live data reaches a frame only through a LiveGrant, and nothing but this
// module makes one: `decideLive` when no question needs asking (the viewer's own saved dashboard,
// an author they trust, nobody signed in), and `agree` when the viewer said yes to a question
// `decideLive` asked. The frame component takes a grant, never a path list, and its broker
// answers no live read without a genuine one: a page that forgets to ask has nothing to hand over.
//
// `agree` is for the consent gate alone (eslint.config.mjs refuses it anywhere else), and a grant
// cannot be written by hand: its fields are private to the class, so neither an object literal nor
// a cast passes `LiveGrant.isGrant`, and casting to the type is a lint error besides.

/** Who wrote the code about to run, as the page showing it knows. */
export type CodeAuthor =
  /** The viewer's own saved dashboard: their code, every path. */
  | { kind: "viewer" }
  /** A saved dashboard in someone else's space. */
  | { kind: "space"; handle: string; name: string; trusted: boolean }
  /** A live playground draft: whoever holds its write link. */
  | { kind: "draft" }
  /**
   * The code in the playground editor. `from` says where it came from, in words ("the “CX book”
   * example", "a draft by an anonymous author"); `own` when it is the viewer's own saved
   * dashboard, opened from their space. The editor serves only the paths its code names.
   */
  | { kind: "editor"; from: string; own: boolean };

/** What the viewer is asked before code they did not write may read their live data. */
export interface LiveQuestion {
  readonly author: CodeAuthor;
  readonly reads: DraftReads;
  /** Paths already agreed to on this page: the question is back because the code reads more. */
  readonly agreed: readonly string[];
}

const sorted = (paths: Iterable<string>) => [...new Set(paths)].sort();

let agreementOf!: (paths: readonly string[]) => Agreement;

/**
 * The viewer's yes to a question: the paths it covers, kept by the page until it starts over.
 * Like a grant, only this module makes one.
 */
export class Agreement {
  readonly #paths: readonly string[];

  private constructor(paths: readonly string[]) {
    this.#paths = Object.freeze(sorted(paths));
  }

  static {
    agreementOf = (paths) => new Agreement(paths);
  }

  get paths(): readonly string[] {
    return this.#paths;
  }

  static isAgreement(value: unknown): value is Agreement {
    return typeof value === "object" && value !== null && #paths in value;
  }
}

export type LiveDecision =
  /**
   * Live data, through this grant. `preagreed`: nobody was asked because the viewer trusts the
   * author (or it is their own dashboard, opened in the editor); the page keeps what the code named
   * then as its agreement (`startingAgreement`), so later code that names more asks.
   */
  | { kind: "run"; grant: LiveGrant; preagreed?: true }
  /**
   * Ask first. `running` is what the viewer already agreed to on this page, when anything: a page
   * that keeps the dashboard running while it asks again serves only those paths meanwhile.
   */
  | { kind: "ask"; question: LiveQuestion; running: LiveGrant | null };

let mint!: (paths: readonly string[] | null) => LiveGrant;

/** Permission for one frame to read the viewer's live data: every path, or the listed templates. */
export class LiveGrant {
  readonly #paths: readonly string[] | null;

  private constructor(paths: readonly string[] | null) {
    this.#paths = paths === null ? null : Object.freeze([...paths]);
  }

  static {
    mint = (paths) => new LiveGrant(paths);
  }

  /** The path templates this grant covers; null for every path (the viewer's own code). */
  get paths(): readonly string[] | null {
    return this.#paths;
  }

  /** Whether a read of `pathname` (relative to the API base, no query) is covered. */
  allows(pathname: string): boolean {
    return this.#paths === null || readAllowed(this.#paths, pathname);
  }

  /** True only for a grant this module made: a cast or a copy has no private field. */
  static isGrant(value: unknown): value is LiveGrant {
    return typeof value === "object" && value !== null && #paths in value;
  }
}

/**
 * Whether this code may run on the viewer's live data now, and on which paths.
 *
 * - The viewer's own saved dashboard runs at once on every path.
 * - Nobody signed in has no data to lose (they see their own 401s): the code runs, held to the
 *   paths it names.
 * - Code that names no path gets a grant for none: nothing of the viewer's can reach it.
 * - An author the viewer trusts, and the viewer's own dashboard opened in the editor, run at
 *   once, held to the paths the code names when it starts.
 * - Anything else asks. After a yes, the code runs on the agreed paths while it names no other;
 *   code that names more asks again.
 */
export function decideLive(input: { signedIn: boolean; author: CodeAuthor; reads: DraftReads; agreement: Agreement | null }): LiveDecision {
  const { signedIn, author, reads, agreement } = input;
  if (author.kind === "viewer") return { kind: "run", grant: mint(null) };
  // Only an agreement made here counts: anything else is no agreement at all.
  const genuine = Agreement.isAgreement(agreement) ? agreement : null;
  const agreed = genuine?.paths ?? [];
  if (!signedIn || reads.paths.length === 0) return { kind: "run", grant: mint(sorted([...agreed, ...reads.paths])) };
  const preagreed = (author.kind === "space" && author.trusted) || (author.kind === "editor" && author.own);
  if (preagreed && genuine === null) return { kind: "run", grant: mint(sorted(reads.paths)), preagreed: true };
  if (genuine !== null && reads.paths.every((p) => agreed.includes(p))) return { kind: "run", grant: mint(agreed) };
  return { kind: "ask", question: { author, reads, agreed }, running: genuine === null ? null : mint(agreed) };
}

/**
 * Whether this code, with nothing agreed yet, would be asked about before it runs on the viewer's
 * live data: the pages that draw it instead (the safe view) ask this. An answer, never a grant.
 */
export function wouldAsk(input: { signedIn: boolean; author: CodeAuthor; reads: DraftReads }): boolean {
  return decideLive({ ...input, agreement: null }).kind === "ask";
}

/**
 * The viewer said yes to `question`: the paths agreed so far and those it showed. Only the consent
 * gate calls this, from the viewer's own click.
 */
export function agree(question: LiveQuestion): Agreement {
  return agreementOf([...question.agreed, ...question.reads.paths]);
}

/**
 * A page's agreement when a trusted or own author's code starts without a question: what that
 * code named, so later code that names more asks. Null for any other decision.
 */
export function startingAgreement(decision: LiveDecision): Agreement | null {
  if (decision.kind !== "run" || !decision.preagreed || !LiveGrant.isGrant(decision.grant) || decision.grant.paths === null) return null;
  return agreementOf(decision.grant.paths);
}

/**
 * The grant for the service's own drawing of code the viewer did not write (the safe view): the
 * paths the code names, and nothing else. No question is asked because nothing the code does there
 * reaches anything but these answers: it runs in the service's contained browser, and only an
 * inert copy of what it drew reaches the viewer's (lib/saved/drawings.ts). Never handed to a
 * frame in the viewer's browser, where what a dashboard reads could be sent out.
 */
export function drawingGrant(reads: DraftReads): LiveGrant {
  return mint(sorted(reads.paths));
}
