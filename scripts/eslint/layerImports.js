// @ts-check
import path from "node:path";

/**
 * ESLint rule `perch/layer-imports`: relative imports may only reach the layers a file's own layer
 * allows (see `layers.js`), and every file under a checked root must belong to a layer. An allow
 * entry is a folder (its whole layer) or one file inside another layer (an entry point).
 * @type {import("eslint").Rule.RuleModule}
 */
export const layerImports = {
  meta: {
    type: "problem",
    docs: { description: "Imports follow the layer table (allow-lists per folder)" },
    schema: [
      {
        type: "object",
        properties: {
          roots: { type: "array", items: { type: "string" } },
          layers: { type: "array", items: { type: "object" } },
        },
        required: ["roots", "layers"],
        additionalProperties: false,
      },
    ],
    messages: {
      noLayer:
        "'{{file}}' is in no layer: add its folder to scripts/eslint/layers.js, with what it may import.",
      forbidden: "Layer '{{from}}' may not import '{{target}}' (layer '{{to}}'); it may import: {{allowed}}.",
    },
  },
  create(context) {
    const { roots, layers } = /** @type {{roots: string[], layers: {layer: string, allow: string[]}[]}} */ (
      context.options[0]
    );
    const cwd = context.cwd;
    const relative = (/** @type {string} */ absolute) =>
      path.relative(cwd, absolute).split(path.sep).join("/");
    const inside = (/** @type {string} */ file, /** @type {string} */ folder) =>
      file === folder || file.startsWith(`${folder}/`);
    const layerOf = (/** @type {string} */ file) =>
      layers.filter((row) => inside(file, row.layer)).sort((a, b) => b.layer.length - a.layer.length)[0];

    const file = relative(path.resolve(cwd, context.filename));
    if (!roots.some((root) => inside(file, root))) return {};
    const own = layerOf(file);
    /** @param {import("estree").Node} node @param {unknown} source */
    const check = (node, source) => {
      if (!own || typeof source !== "string" || !source.startsWith(".")) return;
      const target = relative(path.resolve(path.dirname(path.resolve(cwd, context.filename)), source));
      const targetLayer = layerOf(target);
      if (targetLayer === own) return;
      const withoutExtension = (/** @type {string} */ name) => name.replace(/\.(c|m)?(j|t)sx?$/, "");
      const allowed = own.allow.some(
        (entry) => inside(target, entry) || withoutExtension(target) === withoutExtension(entry),
      );
      if (allowed) return;
      context.report({
        node,
        messageId: "forbidden",
        data: {
          from: own.layer,
          target,
          to: targetLayer?.layer ?? "none",
          allowed: own.allow.join(", ") || "nothing outside itself",
        },
      });
    };
    return {
      Program(node) {
        if (!own) context.report({ node, messageId: "noLayer", data: { file } });
      },
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === "Literal" && check(node, node.source.value),
      // `import("../x.js").Type` in a type position (typescript-eslint's TSImportType).
      /** @param {any} node */
      TSImportType: (node) =>
        check(node, "source" in node ? node.source?.value : node.argument?.literal?.value),
    };
  },
};

/** The local plugin that carries the rule. */
export const perchPlugin = { rules: { "layer-imports": layerImports } };
