// The demo tenant's people who can sign in. Groups decide permissions (lib/auth/permissions).

interface DemoUser {
  email: string;
  name: string;
  groups: readonly string[];
  /** Connectors connected for this person in the demo. */
  connectors: readonly ("tracker" | "coderepo" | "support")[];
  callsOptIn: boolean;
  /** The CSM record this person is, when they own a book of business. */
  ownsBook: boolean;
  /** Example dashboards (ids from demo/examples) saved in this person's space, by slug. */
  space: Readonly<Record<string, string>>;
}

export const demoUsers: readonly DemoUser[] = [
  {
    email: "admin@demo.test",
    name: "Avery Admin",
    groups: ["admin", "cx"],
    connectors: ["tracker", "coderepo", "support"],
    callsOptIn: true,
    ownsBook: false,
    space: {},
  },
  {
    email: "csm@demo.test",
    name: "Casey Morgan",
    groups: ["cx"],
    connectors: ["tracker", "coderepo", "support"],
    callsOptIn: true,
    ownsBook: true,
    space: { "my-book": "cx-book" },
  },
  {
    email: "member@demo.test",
    name: "Morgan Member",
    groups: [],
    connectors: [],
    callsOptIn: false,
    ownsBook: false,
    space: {},
  },
];
