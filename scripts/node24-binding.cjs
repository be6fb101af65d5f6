// Preloaded (--require) into Node 24 processes of the suite by scripts/node24.mjs: better-sqlite3
// loads its compiled addon through the `bindings` package, and that addon is built for one
// Node ABI. The project's node_modules keeps the machine's Node's build; this hands Node 24 the
// copy built for it (BETTER_SQLITE3_NODE), so both Nodes run from one node_modules.
const Module = process.getBuiltinModule("node:module");

const binding = process.env.BETTER_SQLITE3_NODE;
if (binding) {
  const load = Module._load;
  const addon = () => Module.createRequire(__filename)(binding);
  Module._load = function (request, parent, isMain) {
    if (request === "bindings" && parent?.filename?.includes("/better-sqlite3/")) return addon;
    return load.call(this, request, parent, isMain);
  };
}
