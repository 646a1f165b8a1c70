/**
 * toolyard/feature-boundaries: web features (src/web/features/<name>/) meet only through a
 * feature's public index.ts. A static import (or re-export) that reaches into another
 * feature's files fails the lint; inside one feature, imports are free.
 *
 * The one exception is the router's `import()`: a lazy page is how the app is split into
 * chunks, and importing it through index.ts would pull the whole feature into the chunk
 * that imports the index. So dynamic imports from src/web/app/ may name a page module.
 */
import path from "node:path";

const FEATURES = path.join("src", "web", "features");

/** The feature a file belongs to, and the path inside it; undefined outside the features. */
function featureOf(file) {
  const index = file.indexOf(`${path.sep}${FEATURES}${path.sep}`);
  if (index === -1) return undefined;
  const rest = file.slice(index + FEATURES.length + 2).split(path.sep);
  return { name: rest[0], inner: rest.slice(1).join("/") };
}

const isPublicEntry = (inner) => inner === "" || /^index(\.tsx?)?$/.test(inner);

export const featureBoundaries = {
  meta: {
    type: "problem",
    docs: { description: "Features import each other only through their public index.ts" },
    messages: {
      deep: "'{{source}}' reaches into the {{feature}} feature's internals: import from its public index.ts ('{{entry}}') instead, and export what you need there.",
    },
    schema: [],
  },
  create(context) {
    const file = context.filename;
    const self = featureOf(file);
    const inApp = file.includes(`${path.sep}src${path.sep}web${path.sep}app${path.sep}`);
    function check(node, source, dynamic) {
      if (typeof source !== "string" || !source.startsWith(".")) return;
      const resolved = path.resolve(path.dirname(file), source);
      const target = featureOf(resolved);
      if (!target || target.name === self?.name) return;
      if (isPublicEntry(target.inner)) return;
      if (dynamic && inApp) return;
      const featuresDir = resolved.slice(0, resolved.indexOf(`${path.sep}${FEATURES}${path.sep}`) + FEATURES.length + 1);
      const entry = path.relative(path.dirname(file), path.join(featuresDir, target.name)).split(path.sep).join("/");
      context.report({ node, messageId: "deep", data: { source, feature: target.name, entry } });
    }
    return {
      ImportDeclaration: (node) => check(node, node.source.value, false),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value, false),
      ExportAllDeclaration: (node) => check(node, node.source.value, false),
      ImportExpression: (node) => node.source.type === "Literal" && check(node, node.source.value, true),
    };
  },
};

export default { rules: { "feature-boundaries": featureBoundaries } };
