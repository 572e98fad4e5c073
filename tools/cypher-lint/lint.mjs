#!/usr/bin/env node
// Lints Cypher files with Neo4j's own parser and semantic analysis
// (@neo4j-cypher/language-support, lintCypherQuery), offline.
//
//   node lint.mjs FILE.cypher...      exit 0: no errors; 1: errors (printed); 2: usage
//
// Each file may hold several statements separated by `;`. Parameters ($name) are values
// supplied at run time, so every parameter a file uses is declared to the linter.
// Warnings (severity 2) are printed but do not fail.
import { readFileSync } from 'node:fs';
import { lintCypherQuery } from '@neo4j-cypher/language-support';

const ERROR = 1;

function declaredParameters(text) {
  const parameters = {};
  for (const match of text.matchAll(/\$`?([A-Za-z_][A-Za-z0-9_]*)`?/g)) {
    parameters[match[1]] = null;
  }
  return parameters;
}

function lintFile(path) {
  const text = readFileSync(path, 'utf8');
  const { diagnostics } = lintCypherQuery(text, { parameters: declaredParameters(text) }, {
    consoleCommandsEnabled: false,
  });
  let errors = 0;
  for (const d of diagnostics) {
    const where = `${path}:${d.range.start.line + 1}:${d.range.start.character + 1}`;
    const kind = d.severity === ERROR ? 'error' : 'warning';
    if (d.severity === ERROR) errors += 1;
    console.log(`${where}: ${kind}: ${d.message}`);
  }
  return errors;
}

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: node lint.mjs FILE.cypher...');
  process.exit(2);
}
let errors = 0;
for (const file of files) {
  const started = Date.now();
  const found = lintFile(file);
  errors += found;
  console.log(`${file}: ${found} error(s) (${Date.now() - started} ms)`);
}
process.exit(errors > 0 ? 1 : 0);
