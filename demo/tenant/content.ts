// Word lists and conversation scripts for the demo tenant. Kept apart from the generator so
// the generation logic stays readable; everything here is plain data.

export const PLACE_PREFIXES = [
  "Maple", "Cedar", "Oak", "Pine", "Willow", "Elm", "Birch", "Aspen", "Spring", "Clear",
  "Silver", "Green", "Fair", "North", "South", "East", "West", "Red", "Stone", "Eagle",
  "Fox", "Deer", "Bear", "Mill", "Lake", "River", "Rock", "Sun", "Bright", "Glen",
  "Hazel", "Walnut", "Sycamore", "Copper", "Granite", "Prairie", "Meadow", "Brook", "Crystal", "Highland",
] as const;

export const PLACE_SUFFIXES = [
  " Valley", " Falls", " Ridge", " Creek", "brook", "field", "wood", "view", "dale", " Springs",
  " Harbor", " Hills", " Grove", " Park", " Bay", " Point", " Crossing", " Heights", "ton", " Prairie",
] as const;

/** District name patterns; `{p}` is the place. `abbr` feeds the web domain. */
export const DISTRICT_PATTERNS: readonly { name: string; abbr: string; weight: number }[] = [
  { name: "{p} Unified School District", abbr: "usd", weight: 5 },
  { name: "{p} Independent School District", abbr: "isd", weight: 3 },
  { name: "{p} Public Schools", abbr: "ps", weight: 4 },
  { name: "{p} School District", abbr: "sd", weight: 4 },
  { name: "{p} Community Schools", abbr: "cs", weight: 2 },
  { name: "{p} Area School District", abbr: "asd", weight: 1 },
];

export const SCHOOL_NAMES = [
  "Lincoln", "Washington", "Jefferson", "Roosevelt", "Kennedy", "Franklin", "Madison", "Adams",
  "Jackson", "Hamilton", "Riverside", "Hillcrest", "Lakeview", "Oakwood", "Sunnyside", "Meadowbrook",
  "Parkview", "Valley View", "Westside", "Eastside", "Cesar Chavez", "Rosa Parks", "Sally Ride",
  "Amelia Earhart", "Harriet Tubman", "Martin Luther King Jr.", "Thurgood Marshall", "Pioneer",
  "Heritage", "Discovery", "Horizon", "Summit", "Evergreen", "Brookside", "Fairview", "Greenfield",
  "Highland", "Monroe", "Garfield", "Emerson", "Whittier", "Longfellow", "Sequoia", "Mountain View",
  "Ridgeview", "Sandburg", "Carver", "Bryant", "Wilson", "Grant", "Sierra Vista", "Crestwood",
] as const;

type SchoolLevel = "elementary" | "middle" | "high" | "k8";

export const SCHOOL_LEVELS: readonly { level: SchoolLevel; suffixes: readonly string[]; enrolment: readonly [number, number]; weight: number }[] = [
  { level: "elementary", suffixes: ["Elementary", "Elementary School"], enrolment: [200, 750], weight: 6 },
  { level: "middle", suffixes: ["Middle School", "Junior High School"], enrolment: [400, 1300], weight: 3 },
  { level: "high", suffixes: ["High School"], enrolment: [700, 2500], weight: 2 },
  { level: "k8", suffixes: ["K-8 Academy", "K-8 School"], enrolment: [300, 900], weight: 1 },
];

export const FIRST_NAMES = [
  "Olivia", "Liam", "Emma", "Noah", "Ava", "Elijah", "Sophia", "James", "Isabella", "Lucas",
  "Mia", "Mateo", "Amelia", "Benjamin", "Harper", "Henry", "Evelyn", "Alexander", "Abigail", "Daniel",
  "Emily", "Michael", "Elizabeth", "Samuel", "Sofia", "David", "Camila", "Joseph", "Aria", "Carter",
  "Scarlett", "Owen", "Victoria", "Wyatt", "Madison", "John", "Luna", "Jack", "Grace", "Luke",
  "Chloe", "Jayden", "Penelope", "Dylan", "Layla", "Grayson", "Riley", "Levi", "Zoey", "Isaac",
  "Nora", "Gabriel", "Lily", "Julian", "Eleanor", "Anthony", "Hannah", "Jaxon", "Lillian", "Lincoln",
  "Priya", "Wei", "Aisha", "Diego", "Fatima", "Hiroshi", "Keisha", "Tomás", "Ngozi", "Rahul",
  "Marisol", "Dmitri", "Yesenia", "Kwame", "Linh", "Andrea", "Patricia", "Robert", "Denise", "Gregory",
] as const;

export const LAST_NAMES = [
  "Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez",
  "Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson", "Martin",
  "Lee", "Perez", "Thompson", "White", "Harris", "Sanchez", "Clark", "Ramirez", "Lewis", "Robinson",
  "Walker", "Young", "Allen", "King", "Wright", "Scott", "Torres", "Nguyen", "Hill", "Flores",
  "Green", "Adams", "Nelson", "Baker", "Hall", "Rivera", "Campbell", "Mitchell", "Carter", "Roberts",
  "Gomez", "Phillips", "Evans", "Turner", "Diaz", "Parker", "Cruz", "Edwards", "Collins", "Reyes",
  "Stewart", "Morris", "Morales", "Murphy", "Cook", "Rogers", "Gutierrez", "Ortiz", "Morgan", "Cooper",
  "Patel", "Kim", "Chen", "Okafor", "Singh", "Nakamura", "Haddad", "Kowalski", "O'Brien", "Fitzgerald",
] as const;

/** The CSMs besides Casey Morgan (csm@demo.test). The last one has left the company. */
export const OTHER_CSMS: readonly { first: string; last: string }[] = [
  { first: "Jordan", last: "Reyes" },
  { first: "Priya", last: "Raman" },
  { first: "Marcus", last: "Bell" },
  { first: "Elena", last: "Voss" },
  { first: "Theo", last: "Lindqvist" },
  { first: "Naomi", last: "Okoro" },
  { first: "Sam", last: "Whitaker" },
  { first: "Rosa", last: "Delgado" },
  { first: "Kai", last: "Tanaka" },
  { first: "Imani", last: "Brooks" },
  { first: "Felix", last: "Moreau" },
  { first: "Hana", last: "Sato" },
  { first: "Owen", last: "Gallagher" },
  { first: "Leah", last: "Abramov" },
  { first: "Tariq", last: "Nasser" },
  { first: "Greta", last: "Holm" },
  { first: "Victor", last: "Mendes" },
  { first: "Ruth", last: "Adeyemi" },
];

export const DEPARTED_CSM = { first: "Dana", last: "Whitfield" } as const;

/** Internal staff outside customer success, for the CRM `users` instance. */
export const STAFF: readonly { first: string; last: string; team: string }[] = [
  { first: "Riley", last: "Chen", team: "Engineering" },
  { first: "Devon", last: "Park", team: "Engineering" },
  { first: "Alex", last: "Romero", team: "Engineering" },
  { first: "Jamie", last: "Foster", team: "Engineering" },
  { first: "Quinn", last: "Harlow", team: "Product" },
  { first: "Skyler", last: "Nash", team: "Product" },
  { first: "Taylor", last: "Brennan", team: "Support" },
  { first: "Morgan", last: "Achebe", team: "Support" },
  { first: "Reese", last: "Kalinin", team: "Support" },
  { first: "Harper", last: "Lowell", team: "Sales" },
  { first: "Cameron", last: "Diaz-Ortega", team: "Sales" },
  { first: "Jesse", last: "Whitman", team: "Sales" },
  { first: "Parker", last: "Ingram", team: "Operations" },
  { first: "Rowan", last: "Ellis", team: "Data" },
  { first: "Emerson", last: "Vale", team: "Data" },
  { first: "Blake", last: "Sorensen", team: "Marketing" },
];

export const ENGAGEMENT_SUBJECTS: Record<"call" | "meeting" | "email", readonly string[]> = {
  call: [
    "Check-in call with principal",
    "Rostering issue follow-up",
    "Call re: login problems after SIS change",
    "Renewal timing call",
    "Quick call: teacher adoption",
    "Call with tech coordinator",
    "Voicemail + callback re: invoice",
  ],
  meeting: [
    "Quarterly business review",
    "Onboarding kickoff",
    "Staff PD session planning",
    "Mid-year adoption review",
    "Admin dashboard walkthrough",
    "Back-to-school readiness meeting",
    "Data privacy agreement review",
  ],
  email: [
    "Re: usage report for last month",
    "Training resources for new staff",
    "Re: renewal quote",
    "Following up on our call",
    "Re: rostering sync errors",
    "Welcome back — new features this term",
    "Invoice and PO question",
    "Re: reach numbers by grade",
  ],
};

export const DEAL_KINDS = ["Renewal", "Expansion", "Add-on: Analytics", "Multi-year renewal", "Pilot"] as const;

export const ORPHAN_DEALS = [
  "Inbound: summer school pilot",
  "Conference lead — state ed-tech summit",
  "Charter network inquiry",
  "Webinar follow-up — family engagement",
  "Private school consortium",
  "Referral from partner reseller",
] as const;

export const SUPPORT_TITLES = [
  "Teachers can't see new students after roster sync",
  "How do I reset a student password?",
  "Weekly report email not arriving",
  "SSO login loops back to the sign-in page",
  "Export to CSV is missing the grade column",
  "Can we merge two duplicate teacher accounts?",
  "Parent app shows the wrong school",
  "Question about invoice and PO number",
  "Bulk upload fails with an encoding error",
  "Need to add a new campus to our account",
  "Attendance numbers look different from our SIS",
  "How do we archive last year's classes?",
  "Data privacy agreement request",
  "App is slow on Chromebooks in the library",
  "Student badges not printing",
  "Request: turn on the analytics add-on",
] as const;

export const TRACKER_PROJECTS = [
  { name: "Platform", key: "ENG" },
  { name: "Roster Sync", key: "SYNC" },
  { name: "Customer Escalations", key: "ESC" },
  { name: "Data & Reporting", key: "DATA" },
] as const;

export const TRACKER_TITLES: Record<string, readonly string[]> = {
  ENG: [
    "Rate-limit bursts from the mobile app on Monday mornings",
    "Upgrade the job queue and drop the legacy retry path",
    "Session cookie should be SameSite=Lax everywhere",
    "Flaky end-to-end test: teacher invite flow",
    "Move file uploads to signed URLs",
    "Reduce cold-start time of the reporting worker",
    "Audit log is missing the actor for API token writes",
    "Dark mode contrast issues on the admin console",
  ],
  SYNC: [
    "Clever sync drops students with a hyphenated last name",
    "ClassLink: handle sections with no teacher of record",
    "Nightly SIS import times out for districts over 20k students",
    "Deduplicate staff who appear at two schools",
    "Show last successful sync time on the school page",
    "OneRoster CSV: accept BOM-prefixed files",
  ],
  ESC: [
    "Lincoln Elementary: reach looks too low after term start",
    "District wants enrolment figures refreshed from the state file",
    "Churn risk: usage dropped 40% at two middle schools",
    "Renewal blocker: data privacy addendum wording",
    "Principal cannot see the school dashboard",
    "Weekly usage email goes to a departed administrator",
    "Duplicate school record created by the CRM import",
    "Health score missing for newly provisioned school",
  ],
  DATA: [
    "Health score: document the band thresholds",
    "Backfill weekly active persons for the summer gap",
    "District rollup double-counts ARR across schools",
    "Add enrolment source and date to the school record",
    "Cadence: count meetings logged by a second CSM",
    "Usage export per grade level",
  ],
};

export const TRACKER_STATES: readonly { name: string; type: "backlog" | "unstarted" | "started" | "completed" | "canceled" }[] = [
  { name: "Backlog", type: "backlog" },
  { name: "Todo", type: "unstarted" },
  { name: "In Progress", type: "started" },
  { name: "In Review", type: "started" },
  { name: "Done", type: "completed" },
  { name: "Canceled", type: "canceled" },
];

export const REPOS: readonly { name: string; description: string; isPrivate: boolean; visibleToCsm: boolean; owner?: string }[] = [
  { name: "dashboard-data-service", description: "Read-only JSON API and playground for dashboards", isPrivate: true, visibleToCsm: true },
  { name: "roster-sync", description: "SIS and rostering connectors (Clever, ClassLink, OneRoster)", isPrivate: true, visibleToCsm: false },
  { name: "web-app", description: "Teacher and student web application", isPrivate: true, visibleToCsm: false },
  { name: "mobile-app", description: "Family and student mobile app", isPrivate: true, visibleToCsm: false },
  { name: "health-scoring", description: "Weekly school health scores from product usage", isPrivate: true, visibleToCsm: true },
  { name: "district-reports", description: "Templates for district usage and reach reports", isPrivate: true, visibleToCsm: true },
  { name: "infra", description: "Infrastructure as code", isPrivate: true, visibleToCsm: false },
  { name: "design-system", description: "Shared UI components and tokens", isPrivate: false, visibleToCsm: true },
  { name: "help-center", description: "Public help center articles", isPrivate: false, visibleToCsm: true },
  { name: "data-warehouse", description: "Warehouse models and scheduled exports", isPrivate: true, visibleToCsm: false },
  { name: "qbr-templates", description: "Quarterly business review decks and talk tracks", isPrivate: true, visibleToCsm: true, owner: "casey-morgan" },
];

/** Roles in a scripted call: the CSM, up to two customer-side people, an internal colleague. */
export type ScriptRole = "csm" | "cust" | "cust2" | "colleague";

export interface CallScript {
  title: string;
  /** Internal-only calls have no customer company. */
  internal?: boolean;
  turns: readonly (readonly [ScriptRole, string])[];
}

// Placeholders: {school} {district} {cust} {pct} {n} {month} {departed}
export const CALL_SCRIPTS: readonly CallScript[] = [
  {
    title: "Quarterly check-in",
    turns: [
      ["csm", "Thanks for making time, {cust}. I pulled the numbers for {school} before the call, so we can keep this short."],
      ["cust", "Great. Honestly the start of term was hectic, so I'm curious what you're seeing."],
      ["csm", "Weekly active users are up since September. About {pct} percent of enrolled students logged in last week."],
      ["cust", "That's better than I expected. The sixth grade team has really taken to it."],
      ["cust2", "The upper grades are slower. A few teachers still aren't sure how to assign the weekly check-ins."],
      ["csm", "I can run a twenty-minute refresher at your next staff meeting. Would {month} work?"],
      ["cust", "Yes, let's put it on the calendar. Can you also send the usage report by grade?"],
      ["csm", "I'll send it today along with the recording of the last training."],
    ],
  },
  {
    title: "Renewal planning",
    turns: [
      ["csm", "I wanted to get ahead of the renewal for {district}, since your board approves budgets in the spring."],
      ["cust", "Appreciated. Finance asked me for a multi-year option this time."],
      ["csm", "We can do a three-year term with the price held flat. I'll include that in the quote."],
      ["cust", "Does that cover the two schools we added mid-year?"],
      ["csm", "It does. I'll list all {n} schools on the order form so nothing is missed."],
      ["cust", "Good. I'll need the updated data privacy agreement too; our counsel changed the template."],
      ["colleague", "I can take the privacy agreement. Send me the new template and I'll turn it around this week."],
      ["csm", "Perfect. I'll follow up with the quote and a summary of this call."],
    ],
  },
  {
    title: "Rostering issue follow-up",
    turns: [
      ["cust", "Since the SIS migration some teachers see classes from last year and not their current ones."],
      ["csm", "Thanks for flagging it. I looked at the sync log and the new section ids came through without a term."],
      ["colleague", "We shipped a fix for that yesterday. If you trigger a manual sync it should clear up."],
      ["cust", "I'll try it this afternoon. Will the old classes disappear?"],
      ["colleague", "They'll be archived, not deleted, so student work stays available."],
      ["csm", "I'll check back Thursday to confirm everything looks right at {school}."],
    ],
  },
  {
    title: "Usage concern",
    turns: [
      ["csm", "I noticed logins at {school} dropped off over the last few weeks and wanted to check in."],
      ["cust", "We lost our instructional coach in October, and she was the one driving it."],
      ["csm", "That makes sense. Is there someone who could be the point person for now?"],
      ["cust", "Possibly our librarian. She's been asking about it."],
      ["csm", "I'd be glad to set up an intro and walk her through the admin view."],
      ["cust", "Let's do that. I don't want us to lose momentum before testing season."],
    ],
  },
  {
    title: "Onboarding kickoff",
    turns: [
      ["csm", "Welcome aboard! Today I'd like to agree on a launch date and who owns what."],
      ["cust", "We're hoping to launch with all staff after the next break."],
      ["cust2", "I'll handle the rostering side. We use the same SIS as the rest of {district}."],
      ["csm", "Great, then the connector is already set up at the district level. We just need to map {school}."],
      ["cust", "And training?"],
      ["csm", "Two live sessions for staff, plus short videos for anyone who can't attend. I'll send dates."],
    ],
  },
  {
    title: "Expansion conversation",
    turns: [
      ["cust", "A couple of principals in {district} heard about the analytics add-on and asked me about it."],
      ["csm", "It's been popular. It adds reach by grade and a weekly email to school leaders."],
      ["cust", "What would it cost for the whole district?"],
      ["csm", "For {n} schools I can put together a quote; there's a discount if it's co-termed with the renewal."],
      ["cust", "Co-terming would be simpler for us. Send it over and I'll take it to the cabinet."],
    ],
  },
  {
    title: "Pipeline and renewals review",
    internal: true,
    turns: [
      ["csm", "Let's go through the renewals due next quarter, starting with the ones without a health baseline."],
      ["colleague", "Two of them were provisioned recently, so there's only one health point so far."],
      ["csm", "Then we shouldn't read anything into their band yet. I'll note that in the forecast."],
      ["colleague", "Also, a few accounts are still assigned to {departed}. We should reassign them before the QBRs."],
      ["csm", "Agreed. I'll take the ones in my region and raise the rest with the team lead."],
    ],
  },
];
