// What the benchmark loads. Each target is compared with the baseline route measured in the
// same run and the same build. `as` names the demo user whose session is used.

export const targets = [{ name: "me", path: "/api/me", as: "csm@demo.test" }];
