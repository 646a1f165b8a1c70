/**
 * toolyard/server-modules: a server folder (src/server/<name>/) that has an index.ts is a
 * module with one way in (issue 49). A static import, re-export or import() that reaches
 * into another such folder's files fails the lint; inside the folder, imports are free.
 * Folders without an index.ts are not modules (yet) and stay open.
 *
 * Whether a folder has an index.ts is read from the disk once per folder, so making a new
 * module is adding its index.ts: the rule then holds for it with no change here.
 */
import fs from "node:fs";
import path from "node:path";

const SERVER = path.join("src", "server");
const hasIndex = new Map();

/** The server folder a file belongs to, the folder's path, and the path inside it; undefined outside. */
function moduleOf(file) {
  const index = file.indexOf(`${path.sep}${SERVER}${path.sep}`);
  if (index === -1) return undefined;
  const root = file.slice(0, index + SERVER.length + 1);
  const rest = file.slice(index + SERVER.length + 2).split(path.sep);
  if (rest.length < 2) return undefined; // a file at src/server/ itself belongs to no folder
  return { name: rest[0], dir: path.join(root, rest[0]), inner: rest.slice(1).join("/") };
}

function isModule(dir) {
  if (!hasIndex.has(dir)) hasIndex.set(dir, fs.existsSync(path.join(dir, "index.ts")));
  return hasIndex.get(dir);
}

const isPublicEntry = (inner) => inner === "" || /^index(\.[cm]?[jt]s)?$/.test(inner);

export const serverModules = {
  meta: {
    type: "problem",
    docs: { description: "Server folders with an index.ts are imported only through it" },
    messages: {
      deep: "'{{source}}' reaches into the server module {{module}}'s internals: import from its index.ts ('{{entry}}') instead, and export what you need there.",
    },
    schema: [],
  },
  create(context) {
    const file = context.filename;
    const self = moduleOf(file);
    function check(node, source) {
      if (typeof source !== "string" || !source.startsWith(".")) return;
      const resolved = path.resolve(path.dirname(file), source);
      const target = moduleOf(resolved);
      if (!target || target.dir === self?.dir) return;
      if (isPublicEntry(target.inner) || !isModule(target.dir)) return;
      const entry = path.relative(path.dirname(file), target.dir).split(path.sep).join("/");
      context.report({ node, messageId: "deep", data: { source, module: target.name, entry: entry.startsWith(".") ? entry : `./${entry}` } });
    }
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === "Literal" && check(node, node.source.value),
    };
  },
};
