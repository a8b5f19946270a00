// The TypeScript compiler's own resolution of every call in a project: the reference `language_calls.py` measures
// Trident's JavaScript/TypeScript call edges against.
//
// Usage: node ts_reference.cjs <typescript package folder> <project folder> <output JSON file>
//
// Every `.ts`/`.tsx`/`.js`/`.mjs`/`.cjs` file under the project (no `.d.ts`, nothing under node_modules) is one
// program; for each call expression, the caller is the outermost enclosing named function (a function declaration,
// a class's method, accessor or constructor, an interface's method signature, a function or arrow assigned to a
// variable or class field; a nested function's or callback's calls are its outermost function's, as Trident's
// entities are the definitions outside any function) and
// the callee is the declaration the checker resolves the call's signature to, kept when it is in the project.
// `new Foo()` and `super(...)` are left out (Trident's edge for a construction is to the class). A call the checker
// resolves to nothing (an untyped value) is written down as unresolved, so an edge Trident draws there is judged by
// nobody.
"use strict";

const fs = require("fs");
const path = require("path");

const [typescriptFolder, projectFolder, output] = process.argv.slice(2);
const ts = require(path.resolve(typescriptFolder));
const root = path.resolve(projectFolder);
const SOURCE = /\.(ts|tsx|js|mjs|cjs|mts|cts)$/;

function sources(folder) {
  const found = [];
  for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory() && entry.name !== "node_modules") found.push(...sources(full));
    else if (entry.isFile() && SOURCE.test(entry.name) && !entry.name.endsWith(".d.ts")) found.push(full);
  }
  return found.sort();
}

const files = sources(root);
const program = ts.createProgram(files, {
  allowJs: true,
  checkJs: false,
  noEmit: true,
  skipLibCheck: true,
  strict: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  jsx: ts.JsxEmit.Preserve,
  lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
});
const checker = program.getTypeChecker();

function inProject(node) {
  const file = node.getSourceFile().fileName;
  return path.resolve(file).startsWith(root + path.sep) && !file.endsWith(".d.ts");
}

function relative(node) {
  return path.relative(root, path.resolve(node.getSourceFile().fileName)).split(path.sep).join("/");
}

function nameOf(node) {
  return node && (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) ? node.text : null;
}

// A function-like declaration's name as Trident writes it: `f`, `Class.method`; null for an anonymous one.
function identity(node) {
  if ((ts.isFunctionDeclaration(node) || ts.isFunctionExpression(node)) && node.name && !ts.isVariableDeclaration(node.parent)) {
    return ts.isFunctionDeclaration(node) ? nameOf(node.name) : null;
  }
  const holder = node.parent;
  const owner = holder && (ts.isClassLike(holder) || ts.isInterfaceDeclaration(holder)) ? nameOf(holder.name) : null;
  if (ts.isConstructorDeclaration(node)) return owner ? `${owner}.constructor` : null;
  if (ts.isMethodDeclaration(node) || ts.isGetAccessor(node) || ts.isSetAccessor(node) || ts.isMethodSignature(node)) {
    const name = nameOf(node.name);
    return owner && name ? `${owner}.${name}` : null;
  }
  if (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) {
    if (ts.isVariableDeclaration(holder)) return nameOf(holder.name);
    if (ts.isPropertyDeclaration(holder) && ts.isClassLike(holder.parent)) {
      const cls = nameOf(holder.parent.name);
      const name = nameOf(holder.name);
      return cls && name ? `${cls}.${name}` : null;
    }
  }
  return null;
}

function isFunctionLike(node) {
  return ts.isFunctionLike(node) && node.kind !== ts.SyntaxKind.CallSignature && node.kind !== ts.SyntaxKind.ConstructSignature;
}

// The outermost function a node is in: Trident's entities are the definitions outside any function, and a call in a
// nested function or callback is its outermost function's. Null outside any, or in an anonymous one.
function outermost(node) {
  let found = null;
  for (let at = node.parent; at; at = at.parent) {
    if (isFunctionLike(at)) found = at;
  }
  return found;
}

function enclosing(node) {
  const at = outermost(node);
  const name = at ? identity(at) : null;
  return name ? [at, name] : null;
}

function entityName(node) {
  return outermost(node) === null ? identity(node) : null;
}

function callee(call) {
  let declaration = checker.getResolvedSignature(call)?.declaration;
  if (!declaration || ts.isJSDocSignature(declaration)) {
    let symbol = checker.getSymbolAtLocation(call.expression);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
    declaration = symbol?.valueDeclaration;
  }
  if (declaration && ts.isVariableDeclaration(declaration) && declaration.initializer && isFunctionLike(declaration.initializer)) {
    declaration = declaration.initializer;
  }
  return declaration;
}

const defined = [];
const pairs = [];
const resolved = [];
for (const file of program.getSourceFiles()) {
  if (!inProject(file)) continue;
  const visit = (node) => {
    if (isFunctionLike(node) && inProject(node)) {
      const name = entityName(node);
      if (name) {
        const first = file.getLineAndCharacterOfPosition(node.getStart()).line + 1;
        const last = file.getLineAndCharacterOfPosition(node.getEnd()).line + 1;
        defined.push([relative(node), name, first, last]);
      }
    }
    if (ts.isCallExpression(node) && node.expression.kind !== ts.SyntaxKind.SuperKeyword && node.expression.kind !== ts.SyntaxKind.ImportKeyword) {
      const caller = enclosing(node);
      const line = file.getLineAndCharacterOfPosition(node.expression.getEnd()).line + 1;
      const target = callee(node);
      if (target) resolved.push([relative(node), line]);
      if (caller && target && isFunctionLike(target) && inProject(target)) {
        const name = entityName(target);
        if (name) pairs.push([relative(caller[0]), caller[1], relative(target), name, relative(node), line]);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
}
fs.writeFileSync(output, JSON.stringify({ files: files.length, defined, pairs, resolved }));
