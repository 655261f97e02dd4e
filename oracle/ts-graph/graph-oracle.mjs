#!/usr/bin/env node
// The compiler-API peer of `tsograph graph`.
//
// Builds the direct call, new and JSX edges of a TypeScript/JavaScript project
// with the real TypeScript checker and names both ends with tsograph's symbol
// ids (exchange/symbol_ids.py and the "Symbol ids" / "Inline callback ids"
// rules of the spec), so the Python graph can be scored against it edge by
// edge. Nothing of the analysed project is emitted or executed.
//
//   node graph-oracle.mjs <projectRoot> [--tsconfig <file>] [--time] [--explain]
//   node graph-oracle.mjs --self-test
//
// Output (stdout): {typescript, edges: [{from, to, kind, line, column}], nodes: [ids], stats}.
// See ../README.md for what is compared and what is deliberately left out.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import process from 'node:process';

import ts from 'typescript';

// ---- symbol ids (a port of exchange/symbol_ids.py) -----------------------------

const MODULE = '<module>';
const DEFAULT = 'default';
const ELLIPSIS = '\u2026';
const MAX_KEY_UNITS = 64;
const MAX_KEYS = 2;

/** C0 controls, DEL, C1 controls, U+2028/U+2029 and lone surrogates become lowercase `\uxxxx`. */
export function escapeText(text) {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        out += text[i] + text[i + 1];
        i++;
        continue;
      }
    }
    const forbidden = code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029
      || (code >= 0xd800 && code <= 0xdfff);
    out += forbidden ? `\\u${code.toString(16).padStart(4, '0')}` : text[i];
  }
  return out;
}

/** Cut text longer than `limit` UTF-16 units at a code point boundary and mark it with `…`. */
export function cutUtf16(text, limit = MAX_KEY_UNITS) {
  let units = 0;
  let index = 0;
  for (const char of text) {
    if (units + char.length > limit) return text.slice(0, index) + ELLIPSIS;
    units += char.length;
    index += char.length;
  }
  return text;
}

/** JSON-quote as JSON.stringify does (after the cut), then escape what JSON leaves. */
export function quote(value) {
  return escapeText(JSON.stringify(cutUtf16(value)));
}

export function symbolId(relPath, names) {
  const declaration = names.length > 0 ? names.join('.') : MODULE;
  return `${escapeText(relPath)}#${escapeText(declaration)}`;
}

// ---- syntax helpers -------------------------------------------------------------

function isWrapper(node) {
  return ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node)
    || ts.isNonNullExpression(node) || ts.isTypeAssertionExpression(node);
}

function skipWrappers(expression) {
  let current = expression;
  while (isWrapper(current)) current = current.expression;
  return current;
}

function climbWrappers(node) {
  let current = node;
  while (current.parent !== undefined && isWrapper(current.parent)) current = current.parent;
  return current;
}

function isFunctionLike(node) {
  return ts.isFunctionDeclaration(node) || ts.isFunctionExpression(node) || ts.isArrowFunction(node)
    || ts.isMethodDeclaration(node) || ts.isConstructorDeclaration(node)
    || ts.isGetAccessorDeclaration(node) || ts.isSetAccessorDeclaration(node);
}

function isFunctionValued(expression) {
  const inner = skipWrappers(expression);
  return ts.isArrowFunction(inner) || ts.isFunctionExpression(inner);
}

function isFunctionOrClassValued(expression) {
  const inner = skipWrappers(expression);
  return ts.isArrowFunction(inner) || ts.isFunctionExpression(inner) || ts.isClassExpression(inner);
}

/** The call or `new` that takes `node` (through value wrappers) as an argument. */
function argumentOwner(node) {
  const outer = climbWrappers(node);
  const parent = outer.parent;
  if (parent === undefined || !(ts.isCallExpression(parent) || ts.isNewExpression(parent))) return undefined;
  return (parent.arguments ?? []).includes(outer) ? parent : undefined;
}

function isInlineCallback(node) {
  return (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) && argumentOwner(node) !== undefined;
}

/** Static text of a member name; undefined for a computed name. Numbers keep their spelling. */
function memberName(name, sourceFile) {
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteral(name)) return name.text;
  if (ts.isNumericLiteral(name)) return name.getText(sourceFile);
  return undefined;
}

/** A variable of a statement at the top of the file or of a namespace body. */
function isModuleLevel(declaration) {
  const statement = declaration.parent?.parent;
  return statement !== undefined && ts.isVariableStatement(statement)
    && (ts.isSourceFile(statement.parent) || ts.isModuleBlock(statement.parent));
}

/** A method, accessor or property of an object literal. */
function isObjectMember(node) {
  return (ts.isPropertyAssignment(node) || ts.isMethodDeclaration(node) || ts.isGetAccessorDeclaration(node)
    || ts.isSetAccessorDeclaration(node)) && ts.isObjectLiteralExpression(node.parent);
}

/** An identifier or a plain property chain on one (`PATHS.users`, no `?.`); undefined otherwise. */
function nameChain(expression) {
  const node = skipWrappers(expression);
  if (ts.isIdentifier(node)) return node.text;
  if (!ts.isPropertyAccessExpression(node) || node.questionDotToken !== undefined) return undefined;
  const base = nameChain(node.expression);
  return base === undefined ? undefined : `${base}.${node.name.text}`;
}

/** The callee as written: identifiers, this, super, `.name`, `["key"]`; anything else is `…`. */
function calleeText(expression, sourceFile) {
  const node = skipWrappers(expression);
  if (ts.isIdentifier(node)) return node.text;
  if (node.kind === ts.SyntaxKind.ThisKeyword) return 'this';
  if (node.kind === ts.SyntaxKind.SuperKeyword) return 'super';
  if (ts.isPropertyAccessExpression(node)) return `${calleeText(node.expression, sourceFile)}.${node.name.text}`;
  if (ts.isElementAccessExpression(node) && ts.isStringLiteral(skipWrappers(node.argumentExpression))) {
    return `${calleeText(node.expression, sourceFile)}[${quote(skipWrappers(node.argumentExpression).text)}]`;
  }
  return ELLIPSIS;
}

/** Raw text of a template piece, as written in the file (delimiters removed). */
function rawPiece(literal, sourceFile) {
  const text = sourceFile.text.slice(literal.getStart(sourceFile), literal.end);
  if (ts.isNoSubstitutionTemplateLiteral(literal) || ts.isTemplateTail(literal)) return text.slice(1, -1);
  return text.slice(1, -2); // head `...${  and middle }...${
}

function templateKey(node, sourceFile) {
  let text;
  if (ts.isNoSubstitutionTemplateLiteral(node)) {
    text = rawPiece(node, sourceFile);
  } else {
    text = rawPiece(node.head, sourceFile);
    for (const span of node.templateSpans) {
      text += `\${${nameChain(span.expression) ?? ELLIPSIS}}${rawPiece(span.literal, sourceFile)}`;
    }
  }
  return '`' + escapeText(cutUtf16(text)) + '`';
}

/** One static key argument: string, template, name chain, or (at the top level) an array of those. */
function argumentKey(argument, sourceFile, allowArray) {
  const node = skipWrappers(argument);
  if (ts.isStringLiteral(node)) return quote(node.text);
  if (ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node)) return templateKey(node, sourceFile);
  if (allowArray && ts.isArrayLiteralExpression(node)) {
    const items = node.elements.map((element) => argumentKey(element, sourceFile, false));
    return items.every((item) => item !== undefined) ? `[${items.join(',')}]` : undefined;
  }
  const chain = nameChain(node);
  return chain === undefined ? undefined : escapeText(chain);
}

/** `<callee>(<keys>)` or `new <callee>(<keys>)` for the anchor call of an inline callback. */
function callbackSegment(callback, sourceFile) {
  let anchor = argumentOwner(callback);
  for (let outer = argumentOwner(anchor); outer !== undefined; outer = argumentOwner(outer)) anchor = outer;
  const keys = [];
  for (const argument of (anchor.arguments ?? []).slice(0, MAX_KEYS)) {
    const key = argumentKey(argument, sourceFile, true);
    if (key === undefined) break;
    keys.push(key);
  }
  const prefix = ts.isNewExpression(anchor) ? 'new ' : '';
  return `${prefix}${escapeText(calleeText(anchor.expression, sourceFile))}(${keys.join(',')})`;
}

// ---- declaration paths ----------------------------------------------------------

/**
 * Names one source file's code by tsograph's rules. Segments are raw (unescaped);
 * `symbolId` escapes the joined id. `null` means a computed name stopped the path.
 */
export class Namer {
  constructor(sourceFile) {
    this.sourceFile = sourceFile;
    this.callbacks = new Map();
    const seen = new Map();
    const visit = (node) => {
      if (isInlineCallback(node)) this.callbacks.set(node, this.#nameCallback(node, seen));
      ts.forEachChild(node, visit);
    };
    ts.forEachChild(sourceFile, visit);
  }

  #nameCallback(callback, seen) {
    const above = this.namesAbove(callback);
    if (above === null) return null;
    const owner = above.length > 0 ? above : [MODULE];
    const segment = callbackSegment(callback, this.sourceFile);
    const slot = `${owner.join('\u0000')}\u0000${segment}`;
    const count = (seen.get(slot) ?? 0) + 1;
    seen.set(slot, count);
    return [...owner, count === 1 ? segment : `${segment}~${count}`];
  }

  /** Names of the declarations that hold `node` (not `node` itself), outermost first. */
  namesAbove(node) {
    const names = [];
    // True while climbing from a named object-literal member through its enclosing object
    // literals: their keys and the variable that holds the outermost one are named too.
    let memberChain = false;
    for (let current = node; current.parent !== undefined; current = current.parent) {
      const parent = current.parent;
      if (isInlineCallback(parent)) {
        const outer = this.callbacks.get(parent);
        if (outer === undefined || outer === null) return null;
        return [...outer, ...names.reverse()];
      }
      const segment = this.#segment(parent, current, memberChain);
      if (segment === null) return null;
      if (segment !== undefined) names.push(segment);
      memberChain = segment !== undefined
        ? isObjectMember(parent)
        : memberChain && (ts.isObjectLiteralExpression(parent) || isWrapper(parent));
    }
    return names.reverse();
  }

  /**
   * The name `node` adds for code reached through `child`: a string, undefined
   * (none) or null (a computed name: the code gets no declaration path).
   */
  #segment(node, child, memberChain) {
    if (ts.isFunctionDeclaration(node) || ts.isClassDeclaration(node)) return node.name?.text ?? DEFAULT;
    if (ts.isClassExpression(node)) return node.name?.text;
    if (ts.isConstructorDeclaration(node)) return 'constructor';
    if (ts.isMethodDeclaration(node) || ts.isGetAccessorDeclaration(node) || ts.isSetAccessorDeclaration(node)
      || ts.isPropertyDeclaration(node)) {
      return memberName(node.name, this.sourceFile) ?? null;
    }
    if (ts.isPropertyAssignment(node)) {
      if (child !== node.initializer) return undefined;
      const named = isFunctionValued(node.initializer)
        || (memberChain && ts.isObjectLiteralExpression(skipWrappers(node.initializer)));
      return named ? memberName(node.name, this.sourceFile) ?? null : undefined;
    }
    if (ts.isVariableDeclaration(node)) {
      if (!ts.isIdentifier(node.name) || child !== node.initializer) return undefined;
      const named = isModuleLevel(node) || isFunctionOrClassValued(node.initializer)
        || (memberChain && ts.isObjectLiteralExpression(skipWrappers(node.initializer)));
      return named ? node.name.text : undefined;
    }
    if (ts.isExportAssignment(node) && !node.isExportEquals) return DEFAULT;
    if (ts.isModuleDeclaration(node) && ts.isIdentifier(node.name)) return node.name.text;
    if (ts.isBinaryExpression(node) && child === node.right) return this.commonJsName(node);
    return undefined;
  }

  /**
   * The name a top-level CommonJS export assignment gives its value:
   * `module.exports = <function, class or object>` is `default`,
   * `exports.x = <function or class>` (or `module.exports.x =`) is `x`.
   */
  commonJsName(assignment) {
    if (assignment.operatorToken.kind !== ts.SyntaxKind.EqualsToken) return undefined;
    const target = nameChain(assignment.left)?.split('.');
    if (target === undefined || !ts.isPropertyAccessExpression(skipWrappers(assignment.left))) return undefined;
    const equals = target.length === 2 && target[0] === 'module' && target[1] === 'exports';
    const named = (target.length === 2 && target[0] === 'exports')
      || (target.length === 3 && target[0] === 'module' && target[1] === 'exports');
    if (!equals && !named) return undefined;
    const value = skipWrappers(assignment.right);
    const shaped = isFunctionOrClassValued(value) || (equals && ts.isObjectLiteralExpression(value));
    if (!shaped) return undefined;
    const above = this.namesAbove(assignment);
    if (above === null || above.length > 0) return undefined; // only at the top of the module
    return equals ? DEFAULT : target[target.length - 1];
  }

  /** Names of a class node: its holders plus its own name (`default` for an anonymous declaration). */
  classNames(cls) {
    const above = this.namesAbove(cls);
    if (above === null) return null;
    const own = cls.name?.text ?? (ts.isClassDeclaration(cls) ? DEFAULT : undefined);
    return own === undefined ? above : [...above, own];
  }

  /** Names of the scope a site belongs to; `<module>` when nothing names it. */
  ownerNames(node) {
    const names = this.namesAbove(node);
    return names === null ? [] : names;
  }
}

// ---- project files --------------------------------------------------------------

const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'build', 'out', 'coverage']);
const MAX_SOURCE_BYTES = 4 * 1024 * 1024;
const MAX_DEPTH = 256;
const UTF8 = new TextDecoder('utf-8', { fatal: true });

function isDeclarationName(name) {
  return /\.d\.([^/]*\.)?[cm]?ts$/.test(name);
}

/** The project's own sources: the walk tsograph does (no symlinks, skipped folders, no .d.ts). */
function walkSources(root, skipped) {
  const files = new Map(); // absolute path -> {rel, bom}
  const visit = (dir, rel, depth) => {
    if (depth > MAX_DEPTH) { skipped.tooDeep++; return; }
    let entries;
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      skipped.unreadable++;
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const absolute = path.join(dir, entry.name);
      const relative = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isSymbolicLink()) { skipped.symlinks++; continue; }
      if (entry.isDirectory()) {
        if (entry.name.startsWith('.') || SKIPPED_FOLDERS.has(entry.name)) continue;
        visit(absolute, relative, depth + 1);
        continue;
      }
      if (!entry.isFile()) continue;
      if (!SOURCE_EXTENSIONS.includes(path.extname(entry.name)) || isDeclarationName(entry.name)) continue;
      let bytes;
      try {
        if (fs.statSync(absolute).size > MAX_SOURCE_BYTES) { skipped.oversized++; continue; }
        bytes = fs.readFileSync(absolute);
        UTF8.decode(bytes);
      } catch {
        skipped.unreadable++;
        continue;
      }
      const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
      files.set(normalize(absolute), { rel: relative, bom });
    }
  };
  visit(root, '', 0);
  return files;
}

function normalize(file) {
  return path.resolve(file).split(path.sep).join('/');
}

// ---- configs and programs -------------------------------------------------------

const MAX_CONFIGS = 64;

class UsageError extends Error {}
class InputError extends Error {}

function fallbackOptions(base) {
  const options = { ...base };
  options.allowJs = true;
  options.noEmit = true;
  if (options.jsx === undefined) options.jsx = ts.JsxEmit.Preserve;
  if (options.moduleResolution === undefined && options.module === undefined) {
    options.module = ts.ModuleKind.ESNext;
    options.moduleResolution = ts.ModuleResolutionKind.Bundler;
  }
  if (options.target === undefined) options.target = ts.ScriptTarget.ESNext;
  return options;
}

const DEFAULT_OPTIONS = {
  allowJs: true,
  jsx: ts.JsxEmit.Preserve,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  target: ts.ScriptTarget.ESNext,
  resolveJsonModule: true,
  esModuleInterop: true,
  allowSyntheticDefaultImports: true,
  noEmit: true,
};

function parseConfig(file, explicit) {
  const read = ts.readConfigFile(file, ts.sys.readFile);
  if (read.error !== undefined) {
    if (explicit) throw new InputError('the tsconfig file cannot be read');
    return undefined;
  }
  const isJsconfig = path.basename(file) === 'jsconfig.json';
  const existing = isJsconfig ? { allowJs: true, maxNodeModuleJsDepth: 2, allowSyntheticDefaultImports: true } : {};
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, path.dirname(file), existing, file);
  return { file: normalize(file), options: fallbackOptions(parsed.options), fileNames: parsed.fileNames.map(normalize),
    references: parsed.projectReferences ?? [] };
}

/** The root config and, depth first, the configs it references (bounded, cycles skipped). */
function loadConfigTree(rootConfig, explicit) {
  const configs = [];
  const seen = new Set();
  const load = (file, isExplicit) => {
    const key = normalize(file);
    if (seen.has(key) || configs.length >= MAX_CONFIGS) return;
    seen.add(key);
    const config = parseConfig(file, isExplicit);
    if (config === undefined) return;
    configs.push(config);
    for (const reference of config.references) load(ts.resolveProjectReferencePath(reference), false);
  };
  load(rootConfig, explicit);
  return configs;
}

function findRootConfig(root) {
  for (const name of ['tsconfig.json', 'jsconfig.json']) {
    const candidate = path.join(root, name);
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** The nearest tsconfig.json / jsconfig.json above a file, inside the project. */
function nearestConfig(root, file) {
  for (let dir = path.dirname(file); dir.startsWith(root); dir = path.dirname(dir)) {
    for (const name of ['tsconfig.json', 'jsconfig.json']) {
      const candidate = path.join(dir, name);
      if (fs.existsSync(candidate)) return candidate;
    }
    if (dir === root) break;
  }
  return undefined;
}

/**
 * Splits the project sources into groups that share compiler options. The root
 * config (or --tsconfig) and the configs it references are loaded first; the
 * first of them whose file list holds a source owns it. An unclaimed source
 * loads its nearest tsconfig.json / jsconfig.json with its references, which
 * may claim it; otherwise it takes that nearest config's options (with
 * --tsconfig: the explicit config's), and without any config the defaults.
 */
function planPrograms(root, sources, tsconfigArg) {
  const configs = [];
  const byFile = new Map();
  const add = (loaded) => {
    for (const config of loaded) {
      if (byFile.has(config.file)) continue;
      byFile.set(config.file, config);
      configs.push(config);
    }
  };
  let explicit;
  if (tsconfigArg !== undefined) {
    const file = path.resolve(root, tsconfigArg);
    if (!fs.existsSync(file)) throw new InputError('the tsconfig file does not exist');
    add(loadConfigTree(file, true));
    explicit = byFile.get(normalize(file));
  } else {
    const rootConfig = findRootConfig(root);
    if (rootConfig !== undefined) add(loadConfigTree(rootConfig, false));
  }
  const claims = new Map();
  let claimed = 0;
  const claimNew = () => {
    for (; claimed < configs.length; claimed++) {
      for (const name of configs[claimed].fileNames) if (!claims.has(name)) claims.set(name, configs[claimed]);
    }
  };
  claimNew();
  const groups = new Map(); // key -> {config, options, roots}
  const groupFor = (config) => {
    const key = config === undefined ? '' : config.file;
    if (!groups.has(key)) {
      groups.set(key, { config, options: config === undefined ? { ...DEFAULT_OPTIONS } : config.options, roots: [] });
    }
    return groups.get(key);
  };
  for (const file of sources.keys()) {
    let config = claims.get(file);
    if (config === undefined && explicit !== undefined) config = explicit;
    if (config === undefined && tsconfigArg === undefined) {
      const nearest = nearestConfig(root, file);
      if (nearest !== undefined) {
        const key = normalize(nearest);
        if (!byFile.has(key) && configs.length < MAX_CONFIGS) {
          add(loadConfigTree(nearest, false));
          claimNew();
        }
        config = claims.get(file) ?? byFile.get(key);
      }
    }
    groupFor(config).roots.push(file);
  }
  for (const group of groups.values()) {
    // Ambient declarations the config lists (global.d.ts and the like) stay visible to the checker.
    const extra = group.config === undefined ? [] : group.config.fileNames.filter((name) => isDeclarationName(name));
    group.rootNames = [...group.roots, ...extra];
  }
  const ordered = [...groups.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([, group]) => group);
  return { groups: ordered, configs };
}

// ---- resolution -----------------------------------------------------------------

const MAX_FOLLOW = 8;

function isConstDeclaration(declaration) {
  return (ts.getCombinedNodeFlags(declaration) & ts.NodeFlags.Const) !== 0;
}

function isReadonlyField(declaration) {
  return ts.isPropertyDeclaration(declaration)
    && (ts.getModifiers(declaration) ?? []).some((modifier) => modifier.kind === ts.SyntaxKind.ReadonlyKeyword);
}

function isFollowable(expression) {
  return ts.isIdentifier(expression) || ts.isPropertyAccessExpression(expression)
    || (ts.isElementAccessExpression(expression) && ts.isStringLiteralLike(expression.argumentExpression));
}

function bindingRoot(element) {
  let current = element;
  while (ts.isBindingElement(current) || ts.isObjectBindingPattern(current) || ts.isArrayBindingPattern(current)) {
    current = current.parent;
  }
  return current;
}

function bindingPropertyName(element) {
  if (element.dotDotDotToken !== undefined) return undefined;
  const name = element.propertyName ?? element.name;
  if (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name)) return name.text;
  return undefined;
}

/** The `=` assignment a CommonJS export declaration (`exports.x = …`, `module.exports = …`) stands for. */
function commonJsAssignment(declaration) {
  let node = declaration;
  if ((ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node))
    && node.parent !== undefined && ts.isBinaryExpression(node.parent) && node.parent.left === node) {
    node = node.parent;
  }
  return ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken ? node : undefined;
}

class Analysis {
  constructor(root, sources) {
    this.root = root;
    this.sources = sources; // normalized absolute path -> {rel, bom}
    this.namers = new WeakMap();
  }

  namer(sourceFile) {
    let namer = this.namers.get(sourceFile);
    if (namer === undefined) {
      namer = new Namer(sourceFile);
      this.namers.set(sourceFile, namer);
    }
    return namer;
  }

  projectPath(sourceFile) {
    if (sourceFile.isDeclarationFile) return undefined;
    return this.sources.get(normalize(sourceFile.fileName))?.rel;
  }

  /** Id of a declaration whose body `inner` lies in, or undefined when no name reaches it. */
  idWithin(inner, relPath) {
    const names = this.namer(inner.getSourceFile()).namesAbove(inner);
    return names === null || names.length === 0 ? undefined : symbolId(relPath, names);
  }

  classId(cls, relPath) {
    const names = this.namer(cls.getSourceFile()).classNames(cls);
    return names === null || names.length === 0 ? undefined : symbolId(relPath, names);
  }

  /** `new C()`: the constructor with a body, else the class node. */
  constructionTarget(cls, relPath) {
    const constructor = cls.members.find((member) => ts.isConstructorDeclaration(member) && member.body !== undefined);
    if (constructor !== undefined) return this.idWithin(constructor.body, relPath);
    return this.classId(cls, relPath);
  }

  /**
   * `new class … {}()`: the class is written in place, so the checker's answer is the
   * class expression itself. Its constructor with a body, else a named class's node; an
   * anonymous class has no node of its own (no id segment), so its construction runs
   * its instance field initializers and its base class's construction (for a base
   * written in place, the same again).
   */
  constructInPlace(checker, cls, relPath, depth = 0) {
    const constructor = cls.members.find((member) => ts.isConstructorDeclaration(member) && member.body !== undefined);
    if (constructor !== undefined) {
      const id = this.idWithin(constructor.body, relPath);
      return id === undefined ? { ids: new Set(), reason: 'unnamed-target' } : { ids: new Set([id]), reason: undefined };
    }
    if (cls.name !== undefined) {
      const id = this.classId(cls, relPath);
      return id === undefined ? { ids: new Set(), reason: 'unnamed-target' } : { ids: new Set([id]), reason: undefined };
    }
    const ids = new Set();
    let reason;
    for (const member of cls.members) {
      const isStatic = (ts.getModifiers(member) ?? []).some((modifier) => modifier.kind === ts.SyntaxKind.StaticKeyword);
      if (!ts.isPropertyDeclaration(member) || member.initializer === undefined || isStatic) continue;
      const id = this.idWithin(member.initializer, relPath);
      if (id !== undefined) ids.add(id);
    }
    const heritage = cls.heritageClauses?.find((clause) => clause.token === ts.SyntaxKind.ExtendsKeyword);
    const base = heritage?.types[0]?.expression;
    if (base !== undefined) {
      const inner = skipWrappers(base);
      const outcome = ts.isClassExpression(inner) && depth < MAX_FOLLOW
        ? this.constructInPlace(checker, inner, relPath, depth + 1)
        : this.resolveCallee(checker, base, 'new');
      for (const id of outcome.ids) ids.add(id);
      reason = outcome.reason;
    }
    return { ids, reason: ids.size > 0 ? undefined : reason ?? 'unnamed-target' };
  }

  symbolOf(checker, expression) {
    const node = skipWrappers(expression);
    if (ts.isIdentifier(node)) return checker.getSymbolAtLocation(node);
    if (ts.isPropertyAccessExpression(node)) return checker.getSymbolAtLocation(node.name);
    if (ts.isElementAccessExpression(node) && ts.isStringLiteralLike(node.argumentExpression)) {
      return checker.getSymbolAtLocation(node.argumentExpression);
    }
    return undefined;
  }

  /** Resolves a callee; returns {ids} or {reason}. `mode` is call, new or jsx. */
  resolveCallee(checker, expression, mode) {
    const callee = skipWrappers(expression);
    if (!isFollowable(callee)) return { ids: new Set(), reason: 'computed-callee' };
    const symbol = this.symbolOf(checker, callee);
    const result = this.resolveSymbol(checker, symbol, mode, 0);
    if (result.ids.size === 0 && result.reason === 'signature-only' && ts.isPropertyAccessExpression(callee)) {
      const proven = this.proveFromReceiver(checker, callee, mode);
      if (proven !== undefined && proven.ids.size > 0) return proven;
    }
    return result;
  }

  resolveSymbol(checker, symbol, mode, depth) {
    const result = { ids: new Set(), reason: undefined };
    if (symbol === undefined) return { ids: result.ids, reason: 'no-symbol' };
    if (depth > MAX_FOLLOW) return { ids: result.ids, reason: 'follow-depth' };
    let target = symbol;
    if ((target.flags & ts.SymbolFlags.Alias) !== 0) target = checker.getAliasedSymbol(target);
    const declarations = target.declarations ?? [];
    if (declarations.length === 0) return { ids: result.ids, reason: 'no-declaration' };
    const anyBody = declarations.some((declaration) => isFunctionLike(declaration) && declaration.body !== undefined);
    for (const declaration of declarations) {
      if (anyBody && isFunctionLike(declaration) && declaration.body === undefined) continue; // overload signature
      const outcome = this.resolveDeclaration(checker, declaration, mode, depth);
      for (const id of outcome.ids) result.ids.add(id);
      if (result.reason === undefined) result.reason = outcome.reason;
    }
    return result;
  }

  resolveDeclaration(checker, declaration, mode, depth) {
    const none = (reason) => ({ ids: new Set(), reason });
    const one = (id) => (id === undefined ? none('unnamed-target') : { ids: new Set([id]), reason: undefined });
    const sourceFile = declaration.getSourceFile();
    const relPath = this.projectPath(sourceFile);
    if (relPath === undefined) return none('external');
    if (ts.isGetAccessorDeclaration(declaration) || ts.isSetAccessorDeclaration(declaration)) return none('accessor');
    if (isFunctionLike(declaration)) {
      if (declaration.body === undefined) return none('no-body');
      const id = this.idWithin(declaration.body, relPath);
      // A named function expression that nothing names (a conditional value, say) is transparent.
      const transparent = (ts.isFunctionExpression(declaration) || ts.isArrowFunction(declaration))
        && id === this.idWithin(declaration, relPath);
      return transparent ? none('unnamed-target') : one(id);
    }
    if (ts.isMethodSignature(declaration) || ts.isPropertySignature(declaration) || ts.isCallSignatureDeclaration(declaration)
      || ts.isConstructSignatureDeclaration(declaration) || ts.isIndexSignatureDeclaration(declaration)) {
      return none('signature-only');
    }
    if (ts.isClassDeclaration(declaration) || ts.isClassExpression(declaration)) {
      return mode === 'call' ? none('class-called') : one(this.constructionTarget(declaration, relPath));
    }
    if (ts.isParameter(declaration)) return none('parameter');
    if (ts.isVariableDeclaration(declaration)) {
      if (!ts.isIdentifier(declaration.name) || declaration.initializer === undefined) return none('not-function');
      const init = skipWrappers(declaration.initializer);
      if (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) return one(this.idWithin(init.body, relPath));
      if (ts.isClassExpression(init)) {
        return mode === 'call' ? none('class-called') : one(this.constructionTarget(init, relPath));
      }
      if (isFollowable(init) && isConstDeclaration(declaration)) {
        return this.resolveSymbol(checker, this.symbolOf(checker, init), mode, depth + 1);
      }
      return none('not-function');
    }
    if (ts.isBindingElement(declaration)) {
      const root = bindingRoot(declaration);
      if (!ts.isVariableDeclaration(root)) return none('parameter');
      if (!isConstDeclaration(root) || !ts.isObjectBindingPattern(declaration.parent)) return none('not-function');
      const name = bindingPropertyName(declaration);
      if (name === undefined) return none('computed-callee');
      const property = checker.getPropertyOfType(checker.getTypeAtLocation(declaration.parent), name);
      return this.resolveSymbol(checker, property, mode, depth + 1);
    }
    if (ts.isPropertyAssignment(declaration) || ts.isPropertyDeclaration(declaration)) {
      if (declaration.initializer === undefined) return none('not-function');
      const init = skipWrappers(declaration.initializer);
      if (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) return one(this.idWithin(init.body, relPath));
      const follows = ts.isPropertyAssignment(declaration) || isReadonlyField(declaration);
      if (follows && isFollowable(init)) return this.resolveSymbol(checker, this.symbolOf(checker, init), mode, depth + 1);
      return none('not-function');
    }
    if (ts.isShorthandPropertyAssignment(declaration)) {
      return this.resolveSymbol(checker, checker.getShorthandAssignmentValueSymbol(declaration), mode, depth + 1);
    }
    const assignment = commonJsAssignment(declaration);
    if (assignment !== undefined) {
      if (this.namer(sourceFile).commonJsName(assignment) === undefined) return none('unnamed-target');
      const value = skipWrappers(assignment.right);
      if (ts.isArrowFunction(value) || ts.isFunctionExpression(value)) return one(this.idWithin(value.body, relPath));
      if (ts.isClassExpression(value)) {
        return mode === 'call' ? none('class-called') : one(this.constructionTarget(value, relPath));
      }
      return none('not-function');
    }
    if (ts.isExportAssignment(declaration) && !declaration.isExportEquals) {
      const expression = skipWrappers(declaration.expression);
      if (ts.isArrowFunction(expression) || ts.isFunctionExpression(expression)) return one(this.idWithin(expression.body, relPath));
      if (ts.isClassExpression(expression)) {
        return mode === 'call' ? none('class-called') : one(this.constructionTarget(expression, relPath));
      }
      if (isFollowable(expression)) return this.resolveSymbol(checker, this.symbolOf(checker, expression), mode, depth + 1);
      return none('not-function');
    }
    return none('not-function');
  }

  /**
   * A call through an interface or type-literal member: proven only when the
   * receiver is a const variable or readonly field initialized with `new C()`
   * or an object literal; the member is then looked up on that value's type.
   */
  proveFromReceiver(checker, access, mode) {
    const receiver = skipWrappers(access.expression);
    const location = ts.isPropertyAccessExpression(receiver) ? receiver.name : receiver;
    if (!ts.isIdentifier(location) && !ts.isPrivateIdentifier(location)) return undefined;
    const declaration = checker.getSymbolAtLocation(location)?.valueDeclaration;
    if (declaration === undefined || declaration.initializer === undefined) return undefined;
    const fixed = (ts.isVariableDeclaration(declaration) && isConstDeclaration(declaration)) || isReadonlyField(declaration);
    if (!fixed) return undefined;
    const init = skipWrappers(declaration.initializer);
    if (!ts.isNewExpression(init) && !ts.isObjectLiteralExpression(init)) return undefined;
    const property = checker.getPropertyOfType(checker.getTypeAtLocation(init), access.name.text);
    return this.resolveSymbol(checker, property, mode, 1);
  }

  /** `super(...)`: the construction target of the class named in `extends`. */
  resolveSuper(checker, call) {
    const cls = ts.getContainingClass(call);
    const heritage = cls?.heritageClauses?.find((clause) => clause.token === ts.SyntaxKind.ExtendsKeyword);
    const base = heritage?.types[0]?.expression;
    if (base === undefined) return { ids: new Set(), reason: 'no-symbol' };
    return this.resolveCallee(checker, base, 'new');
  }
}

function isIntrinsicTag(tagName) {
  if (ts.isIdentifier(tagName)) {
    const first = tagName.text.charCodeAt(0);
    return (first >= 0x61 && first <= 0x7a) || tagName.text.includes('-');
  }
  return ts.isJsxNamespacedName(tagName);
}

function isTypeOnly(node) {
  if (ts.isTypeNode(node) && !ts.isExpressionWithTypeArguments(node)) return true;
  if (ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) return true;
  if (ts.isImportDeclaration(node) || ts.isImportEqualsDeclaration(node)) return true;
  return ts.canHaveModifiers(node)
    && (ts.getModifiers(node) ?? []).some((modifier) => modifier.kind === ts.SyntaxKind.DeclareKeyword);
}

function location(sourceFile, position, bom) {
  const { line, character } = sourceFile.getLineAndCharacterOfPosition(position);
  const lineStart = sourceFile.getPositionOfLineAndCharacter(line, 0);
  let column = Buffer.byteLength(sourceFile.text.slice(lineStart, lineStart + character), 'utf8') + 1;
  if (line === 0 && bom) column += 3;
  return { line: line + 1, column };
}

/** Node ids of one file: every id an enclosing-declaration lookup can give. */
function collectNodes(analysis, sourceFile, relPath, nodes) {
  const namer = analysis.namer(sourceFile);
  nodes.add(symbolId(relPath, []));
  const add = (names) => {
    if (names !== null && names.length > 0) nodes.add(symbolId(relPath, names));
  };
  const visit = (node) => {
    if (isTypeOnly(node)) return;
    if (isFunctionLike(node) && node.body !== undefined) add(namer.namesAbove(node.body));
    else if ((ts.isVariableDeclaration(node) || ts.isPropertyDeclaration(node)) && node.initializer !== undefined) {
      add(namer.namesAbove(node.initializer));
    } else if (ts.isClassDeclaration(node) || ts.isClassExpression(node)) add(namer.classNames(node));
    else if (ts.isExportAssignment(node) && !node.isExportEquals) add(namer.namesAbove(node.expression));
    else if (ts.isBinaryExpression(node) && namer.commonJsName(node) !== undefined) add(namer.namesAbove(node.right));
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(sourceFile, visit);
}

function collectEdges(analysis, checker, sourceFile, info, edges, stats) {
  const namer = analysis.namer(sourceFile);
  const relPath = info.rel;
  const record = (site, position, kind, result) => {
    stats.sites[kind] = (stats.sites[kind] ?? 0) + 1;
    if (result.ids.size === 0) {
      const reason = result.reason ?? 'not-function';
      stats.unresolved[reason] = (stats.unresolved[reason] ?? 0) + 1;
      if (stats.unresolvedSites !== undefined) {
        const where = location(sourceFile, position, info.bom);
        stats.unresolvedSites.push({ path: relPath, line: where.line, column: where.column, kind, reason });
      }
      return;
    }
    const from = symbolId(relPath, namer.ownerNames(site));
    const where = location(sourceFile, position, info.bom);
    for (const to of result.ids) edges.push({ from, to, kind, line: where.line, column: where.column });
  };
  const visit = (node) => {
    if (isTypeOnly(node)) return;
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      if (callee.kind === ts.SyntaxKind.SuperKeyword) {
        record(node, node.getStart(sourceFile), 'call', analysis.resolveSuper(checker, node));
      } else if (callee.kind !== ts.SyntaxKind.ImportKeyword) {
        record(node, node.getStart(sourceFile), 'call', analysis.resolveCallee(checker, callee, 'call'));
      }
    } else if (ts.isNewExpression(node)) {
      const inPlace = skipWrappers(node.expression);
      const result = ts.isClassExpression(inPlace)
        ? analysis.constructInPlace(checker, inPlace, relPath)
        : analysis.resolveCallee(checker, node.expression, 'new');
      record(node, node.getStart(sourceFile), 'new', result);
    } else if (ts.isTaggedTemplateExpression(node)) {
      record(node, node.getStart(sourceFile), 'call', analysis.resolveCallee(checker, node.tag, 'call'));
    } else if (ts.isDecorator(node)) {
      // `@dec()` is a call expression of its own; only a bare `@dec` is a call here.
      if (!ts.isCallExpression(skipWrappers(node.expression))) {
        record(node, node.getStart(sourceFile), 'call', analysis.resolveCallee(checker, node.expression, 'call'));
      }
    } else if (ts.isJsxOpeningElement(node) || ts.isJsxSelfClosingElement(node)) {
      if (isIntrinsicTag(node.tagName)) stats.intrinsicJsx++;
      else record(node, node.getStart(sourceFile), 'jsx', analysis.resolveCallee(checker, node.tagName, 'jsx'));
    }
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(sourceFile, visit);
}

function compareEdges(a, b) {
  for (const key of ['from', 'to', 'kind']) {
    if (a[key] !== b[key]) return a[key] < b[key] ? -1 : 1;
  }
  return a.line - b.line || a.column - b.column;
}

/** Builds the oracle document for one project root. */
export function buildGraph(projectRoot, { tsconfig, time, explain } = {}) {
  let root;
  try {
    root = fs.realpathSync(projectRoot);
  } catch {
    throw new InputError('the project folder cannot be read');
  }
  if (!fs.statSync(root).isDirectory()) throw new InputError('the project is not a folder');
  const skipped = { symlinks: 0, oversized: 0, unreadable: 0, tooDeep: 0 };
  const sources = walkSources(root, skipped);
  const plan = planPrograms(root, sources, tsconfig);
  const analysis = new Analysis(root, sources);
  const edges = [];
  const nodes = new Set();
  const stats = { sites: {}, unresolved: {}, intrinsicJsx: 0, unresolvedSites: explain ? [] : undefined };
  for (const group of plan.groups) {
    const program = ts.createProgram({ rootNames: group.rootNames, options: group.options });
    const checker = program.getTypeChecker();
    for (const file of group.roots) {
      const sourceFile = program.getSourceFile(file);
      if (sourceFile === undefined) continue;
      const info = sources.get(file);
      collectNodes(analysis, sourceFile, info.rel, nodes);
      collectEdges(analysis, checker, sourceFile, info, edges, stats);
    }
  }
  edges.sort(compareEdges);
  const edgeKinds = {};
  for (const edge of edges) edgeKinds[edge.kind] = (edgeKinds[edge.kind] ?? 0) + 1;
  const missing = new Set(edges.flatMap((edge) => [edge.from, edge.to]).filter((id) => !nodes.has(id)));
  const configs = plan.configs.map((config) => path.relative(root, config.file).split(path.sep).join('/')).sort();
  const output = {
    typescript: ts.version,
    edges,
    nodes: [...nodes].sort(),
    stats: {
      files: sources.size,
      programs: plan.groups.length,
      configs,
      skipped,
      sites: sortKeys(stats.sites),
      edges: sortKeys(edgeKinds),
      unresolved: sortKeys(stats.unresolved),
      intrinsicJsx: stats.intrinsicJsx,
      edgeEndsNotInNodes: missing.size,
    },
  };
  if (explain) {
    output.unresolvedSites = stats.unresolvedSites.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)
      || a.line - b.line || a.column - b.column);
  }
  if (time) {
    const usage = process.resourceUsage();
    output.stats.time = {
      wallMs: Math.round(performance.now() * 1000) / 1000, // since the process started
      maxRssBytes: usage.maxRSS * 1024,
      rssBytes: process.memoryUsage().rss,
      userCpuMs: usage.userCPUTime / 1000,
      systemCpuMs: usage.systemCPUTime / 1000,
    };
  }
  return output;
}

function sortKeys(object) {
  return Object.fromEntries(Object.entries(object).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

// ---- self-test --------------------------------------------------------------------

export const SELF_TEST_FILES = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, jsx: 'preserve', module: 'esnext',
    moduleResolution: 'bundler', target: 'es2022', experimentalDecorators: true, baseUrl: '.', paths: { '@/*': ['src/*'] } } }),
  'src/lib.ts': [
    'export function helper(x?: unknown) { return x; }',
    'export const arrow = (n: number) => n + 1;',
    'export default function () { helper(); }',
    'export { helper as aliased };',
    'export * from "./more";',
  ].join('\n'),
  'src/more.ts': 'export function fromStar() {}\n',
  'src/repo.ts': [
    'import { helper } from "@/lib";',
    'function log(_t: object, _k: string) {}',
    'export class Repo {',
    '  constructor(private n = 0) { this.reset(); }',
    '  @log save() { this.validate(); helper(); }',
    '  validate() {}',
    '  reset() {}',
    '  get size() { return helper(this.n); }',
    '  handle = () => this.save();',
    '  [Symbol.iterator]() { helper(); }',
    '}',
    'export class Plain { run() {} }',
    'export class Child extends Repo { constructor() { super(); super.save(); } }',
  ].join('\n'),
  'src/app.ts': [
    'import def, { aliased, arrow, fromStar } from "./lib";',
    'import { Repo, Plain } from "./repo";',
    'declare const app: { get(p: string, ...h: Function[]): void; on(k: unknown, p: string, h: Function): void };',
    'declare function wrap<T>(f: T): T;',
    'const BOOKS = "/books";',
    'app.get("/x", (req: unknown) => { aliased(req); });',
    'app.get("/x", () => arrow(1));',
    'app.get("/y", wrap(async () => { def(); }));',
    'app.get(`${BOOKS}/featured`, () => fromStar());',
    'app.on(["PUT", "PATCH"], "/b", () => {});',
    'app.get("a\\nb\\u0085", () => {});',
    'app.get("' + 'x'.repeat(70) + '", () => {});',
    'export const handlers = {',
    '  GET: async () => { new Repo().save(); },',
    '  POST() { new Plain().run(); handlers.GET(); },',
    '};',
    'export function load(ids: number[]) {',
    '  const rows = ids.map((id) => arrow(id));',
    '  return new Promise((resolve) => resolve(rows));',
    '}',
    'const store = { find() { return 1; } } as { find(): number };',
    'store.find();',
    'const total = arrow(2);',
  ].join('\n'),
  'src/rules.ts': [
    'export const Named = class Inner { go() { return 1; } };',
    'export function f(): unknown {',
    '  const obj = { run() { return Named; } };',
    '  const C = class { m() { obj.run(); } };',
    '  new C().m();',
    '  return obj.run();',
    '}',
    'export const api = { users: { list: () => f() } };',
    'declare const app: { use(o: object): void };',
    'app.use({ handle() { f(); } });',
    'namespace NS { export function inner() { return f(); } }',
    'NS.inner();',
    'class Nums { 0x10() { f(); } }',
    'export default (() => f())();',
  ].join('\n'),
  'src/anon.ts': [
    'import { Repo } from "./repo";',
    'class Base { run() { return this.step(); } step() { return 0; } }',
    'export function make() {',
    '  new class extends Base { step() { return 1; } }();',
    '  new (class { constructor() { make(); } })();',
    '  new class extends Repo { extra = make(); }();',
    '  return new class Local extends Base {}();',
    '}',
  ].join('\n'),
  'src/cjs.js': [
    'function helper() { return 1; }',
    'exports.run = function () { return helper(); };',
    'module.exports.other = () => helper();',
    'if (helper()) { exports.late = function () { helper(); }; }',
    'function inner() { exports.nested = function () { helper(); }; }',
  ].join('\n'),
  'src/cjs-obj.js': [
    'const { run, other } = require("./cjs");',
    'module.exports = { go() { return run(); }, value: other() };',
  ].join('\n'),
  'src/view.tsx': [
    'import { helper } from "./lib";',
    'function List(props: { items: string[] }) { return <ul>{props.items.map((item) => <Item key={item} name={item} />)}</ul>; }',
    'const Item = ({ name }: { name: string }) => <li onClick={() => helper(name)}>{name}</li>;',
    'export const App = () => <List items={[]} />;',
  ].join('\n'),
};

const SELF_TEST_EDGES = [
  ['src/lib.ts#default', 'src/lib.ts#helper', 'call'],
  ['src/repo.ts#Repo.constructor', 'src/repo.ts#Repo.reset', 'call'],
  ['src/repo.ts#Repo.save', 'src/repo.ts#Repo.validate', 'call'],
  ['src/repo.ts#Repo.save', 'src/lib.ts#helper', 'call'],
  ['src/repo.ts#Repo.save', 'src/repo.ts#log', 'call'],
  ['src/repo.ts#Repo.size', 'src/lib.ts#helper', 'call'],
  ['src/repo.ts#Repo.handle', 'src/repo.ts#Repo.save', 'call'],
  ['src/repo.ts#<module>', 'src/lib.ts#helper', 'call'],
  ['src/repo.ts#Child.constructor', 'src/repo.ts#Repo.constructor', 'call'],
  ['src/repo.ts#Child.constructor', 'src/repo.ts#Repo.save', 'call'],
  ['src/app.ts#<module>.app.get("/x")', 'src/lib.ts#helper', 'call'],
  ['src/app.ts#<module>.app.get("/x")~2', 'src/lib.ts#arrow', 'call'],
  ['src/app.ts#<module>.app.get("/y")', 'src/lib.ts#default', 'call'],
  ['src/app.ts#<module>.app.get(`${BOOKS}/featured`)', 'src/more.ts#fromStar', 'call'],
  ['src/app.ts#handlers.GET', 'src/repo.ts#Repo.constructor', 'new'],
  ['src/app.ts#handlers.GET', 'src/repo.ts#Repo.save', 'call'],
  ['src/app.ts#handlers.POST', 'src/repo.ts#Plain', 'new'],
  ['src/app.ts#handlers.POST', 'src/repo.ts#Plain.run', 'call'],
  ['src/app.ts#handlers.POST', 'src/app.ts#handlers.GET', 'call'],
  ['src/app.ts#load.ids.map()', 'src/lib.ts#arrow', 'call'],
  ['src/app.ts#<module>', 'src/app.ts#store.find', 'call'],
  ['src/app.ts#total', 'src/lib.ts#arrow', 'call'],
  ['src/rules.ts#f.C.m', 'src/rules.ts#f.obj.run', 'call'],
  ['src/rules.ts#f', 'src/rules.ts#f.C', 'new'],
  ['src/rules.ts#f', 'src/rules.ts#f.C.m', 'call'],
  ['src/rules.ts#f', 'src/rules.ts#f.obj.run', 'call'],
  ['src/rules.ts#api.users.list', 'src/rules.ts#f', 'call'],
  ['src/rules.ts#handle', 'src/rules.ts#f', 'call'],
  ['src/rules.ts#NS.inner', 'src/rules.ts#f', 'call'],
  ['src/rules.ts#<module>', 'src/rules.ts#NS.inner', 'call'],
  ['src/cjs.js#run', 'src/cjs.js#helper', 'call'],
  ['src/cjs.js#other', 'src/cjs.js#helper', 'call'],
  ['src/cjs.js#late', 'src/cjs.js#helper', 'call'],
  ['src/cjs.js#<module>', 'src/cjs.js#helper', 'call'],
  ['src/cjs.js#inner', 'src/cjs.js#helper', 'call'],
  ['src/cjs-obj.js#default.go', 'src/cjs.js#run', 'call'],
  ['src/cjs-obj.js#default', 'src/cjs.js#other', 'call'],
  ['src/rules.ts#Nums.0x10', 'src/rules.ts#f', 'call'],
  ['src/rules.ts#default', 'src/rules.ts#f', 'call'],
  ['src/anon.ts#Base.run', 'src/anon.ts#Base.step', 'call'],
  ['src/anon.ts#make', 'src/anon.ts#Base', 'new'],
  ['src/anon.ts#make', 'src/anon.ts#make.constructor', 'new'],
  ['src/anon.ts#make.constructor', 'src/anon.ts#make', 'call'],
  ['src/anon.ts#make', 'src/anon.ts#make.extra', 'new'],
  ['src/anon.ts#make', 'src/repo.ts#Repo.constructor', 'new'],
  ['src/anon.ts#make.extra', 'src/anon.ts#make', 'call'],
  ['src/anon.ts#make', 'src/anon.ts#make.Local', 'new'],
  ['src/view.tsx#List.props.items.map()', 'src/view.tsx#Item', 'jsx'],
  ['src/view.tsx#Item', 'src/lib.ts#helper', 'call'],
  ['src/view.tsx#App', 'src/view.tsx#List', 'jsx'],
];

const SELF_TEST_NODES = [
  'src/app.ts#<module>.app.on(["PUT","PATCH"],"/b")',
  'src/app.ts#<module>.app.get("a\\nb\\u0085")',
  `src/app.ts#<module>.app.get("${'x'.repeat(64)}\u2026")`,
  'src/app.ts#load.new Promise()',
  'src/app.ts#BOOKS',
  'src/repo.ts#Repo',
  'src/lib.ts#<module>',
  'src/view.tsx#List.props.items.map()',
  'src/rules.ts#Named.Inner.go',
  'src/anon.ts#make.step',
  'src/anon.ts#make.Local',
];

function selfTest() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'graph-oracle-self-test-'));
  const failures = [];
  try {
    for (const [name, text] of Object.entries(SELF_TEST_FILES)) {
      fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      fs.writeFileSync(path.join(dir, name), text);
    }
    const graph = buildGraph(dir);
    const got = new Set(graph.edges.map((edge) => JSON.stringify([edge.from, edge.to, edge.kind])));
    const want = new Set(SELF_TEST_EDGES.map((edge) => JSON.stringify(edge)));
    for (const edge of want) if (!got.has(edge)) failures.push(`missing edge ${edge}`);
    for (const edge of got) if (!want.has(edge)) failures.push(`unexpected edge ${edge}`);
    const nodes = new Set(graph.nodes);
    for (const node of SELF_TEST_NODES) if (!nodes.has(node)) failures.push(`missing node ${JSON.stringify(node)}`);
    for (const node of graph.nodes) if (node.includes('Symbol.iterator')) failures.push(`computed name named ${node}`);
    if (graph.stats.edgeEndsNotInNodes !== 0) failures.push('an edge end is not a node');
    const unit = [
      [quote('a"\\\u0001\u007f\u2028'), '"a\\"\\\\\\u0001\\u007f\\u2028"'],
      [cutUtf16('\u{1F600}'.repeat(40)), '\u{1F600}'.repeat(32) + ELLIPSIS],
      [cutUtf16('a' + '\u{1F600}'.repeat(32)), 'a' + '\u{1F600}'.repeat(31) + ELLIPSIS],
      [escapeText('x\ud800y\ud83d\ude00'), 'x\\ud800y\ud83d\ude00'],
      [symbolId('a\u0085.ts', []), 'a\\u0085.ts#<module>'],
    ];
    for (const [actual, expected] of unit) {
      if (actual !== expected) failures.push(`unit: ${JSON.stringify(actual)} != ${JSON.stringify(expected)}`);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const total = SELF_TEST_EDGES.length + SELF_TEST_NODES.length;
  if (failures.length > 0) {
    process.stderr.write(`self-test failed (typescript ${ts.version}):\n${failures.map((line) => `  ${line}\n`).join('')}`);
    return 1;
  }
  process.stdout.write(`self-test passed: ${SELF_TEST_EDGES.length} edges, ${SELF_TEST_NODES.length} node ids (${total} checks) with typescript ${ts.version}\n`);
  return 0;
}

// ---- command line -------------------------------------------------------------------

const USAGE = 'usage: node graph-oracle.mjs <projectRoot> [--tsconfig <file>] [--time] [--explain] | --self-test';

function parseArgs(argv) {
  const args = { root: undefined, tsconfig: undefined, time: false, explain: false, selfTest: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--self-test') args.selfTest = true;
    else if (arg === '--time') args.time = true;
    else if (arg === '--explain') args.explain = true;
    else if (arg === '--tsconfig') {
      if (i + 1 >= argv.length) throw new UsageError('--tsconfig needs a file');
      args.tsconfig = argv[++i];
    } else if (arg.startsWith('--tsconfig=')) args.tsconfig = arg.slice('--tsconfig='.length);
    else if (arg.startsWith('-')) throw new UsageError(`unknown option ${arg}`);
    else if (args.root === undefined) args.root = arg;
    else throw new UsageError('only one project root');
  }
  if (!args.selfTest && args.root === undefined) throw new UsageError('a project root is required');
  return args;
}

function main() {
  let args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`graph-oracle: ${error.message}\n${USAGE}\n`);
    return 64;
  }
  if (args.selfTest) return selfTest();
  try {
    const graph = buildGraph(args.root, { tsconfig: args.tsconfig, time: args.time, explain: args.explain });
    process.stdout.write(`${JSON.stringify(graph)}\n`);
    return 0;
  } catch (error) {
    if (error instanceof InputError) {
      process.stderr.write(`graph-oracle: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('graph-oracle.mjs')) {
  process.exitCode = main();
}
