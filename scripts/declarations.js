// Writes the declarations of the package's typed exports into dist/types:
// the core's API (`i-agent/core`) and the extension API (`i-agent/extension`,
// types only), each entry's .d.ts and those of the modules its types import,
// nothing else. Each file on its own (isolated declarations): the API's
// modules annotate what they export, and tsc has already type-checked
// them, so this takes milliseconds where a declaration build of the
// whole graph the API reaches would take seconds. A declaration that
// imports a package fails the build: the installed package has none.
import {mkdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {dirname, join, relative, resolve} from 'node:path';
import ts from 'typescript';

// The compiled tree to write into: dist by default; a private build may name its own.
const dist = process.argv[2] ?? 'dist';
const sourceRoot = resolve('source/core');
const entries = [join(sourceRoot, 'api', 'index.ts'), join(sourceRoot, 'api', 'extension.ts')];
const out = resolve(dist, 'types');
const compilerOptions = {module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2023, strict: true};

rmSync(out, {recursive: true, force: true});
const problems = [];
const done = new Set();
const pending = [...entries];
while (pending.length > 0) {
	const file = pending.pop();
	if (done.has(file)) continue;
	done.add(file);
	const name = relative(sourceRoot, file);
	const {outputText, diagnostics} = ts.transpileDeclaration(readFileSync(file, 'utf8'), {fileName: file, compilerOptions, reportDiagnostics: true});
	for (const diagnostic of diagnostics ?? []) problems.push(`source/core/${name}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`);
	for (const specifier of specifiers(outputText)) {
		if (!specifier.startsWith('.')) {
			problems.push(`source/core/${name}: its declarations import "${specifier}", which the installed package does not have`);
			continue;
		}

		const target = resolve(dirname(file), specifier.replace(/\.js$/, '.ts'));
		if (relative(sourceRoot, target).startsWith('..')) problems.push(`source/core/${name}: its declarations import ${specifier}, outside the core`);
		else pending.push(target);
	}

	const path = join(out, name.replace(/\.ts$/, '.d.ts'));
	mkdirSync(dirname(path), {recursive: true});
	writeFileSync(path, outputText);
}

if (problems.length > 0) {
	process.stderr.write(`declarations: the API's types cannot be published as they are:\n${problems.map(problem => `  ${problem}\n`).join('')}`);
	process.exit(1);
}

/** The modules a declaration file imports, as TypeScript reads them (an example in a comment is no import). */
function specifiers(text) {
	const {importedFiles, referencedFiles, typeReferenceDirectives} = ts.preProcessFile(text, true, true);
	return [...importedFiles, ...referencedFiles, ...typeReferenceDirectives].map(({fileName}) => fileName);
}
