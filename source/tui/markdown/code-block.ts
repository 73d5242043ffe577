import type {ElementContent, Root} from 'hast';
import {createLowlight} from 'lowlight';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import csharp from 'highlight.js/lib/languages/csharp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import dockerfile from 'highlight.js/lib/languages/dockerfile';
import go from 'highlight.js/lib/languages/go';
import ini from 'highlight.js/lib/languages/ini';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import kotlin from 'highlight.js/lib/languages/kotlin';
import makefile from 'highlight.js/lib/languages/makefile';
import markdown from 'highlight.js/lib/languages/markdown';
import php from 'highlight.js/lib/languages/php';
import python from 'highlight.js/lib/languages/python';
import ruby from 'highlight.js/lib/languages/ruby';
import rust from 'highlight.js/lib/languages/rust';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import swift from 'highlight.js/lib/languages/swift';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import type {Style} from './style.js';
import {expandTabs} from '../text-columns.js';
import {graphemes, widthOf, type Row} from './wrap.js';

/**
 * The languages a fenced block is highlighted in (with highlight.js's own
 * aliases: js, ts, tsx, sh, py, rs, yml, html, toml…): the ones coding
 * answers use most. Any other language is shown as plain code.
 */
const lowlight = createLowlight({bash, c, cpp, csharp, css, diff, dockerfile, go, ini, java, javascript, json, kotlin, makefile, markdown, php, python, ruby, rust, shell, sql, swift, typescript, xml, yaml});

/** highlight.js scopes (`hljs-…` classes) in the theme's colours. */
const SCOPES: Record<string, Style> = {
	keyword: {color: 'syntaxKeyword'},
	built_in: {color: 'syntaxBuiltIn'},
	type: {color: 'syntaxType'},
	literal: {color: 'syntaxLiteral'},
	number: {color: 'syntaxLiteral'},
	string: {color: 'syntaxString'},
	regexp: {color: 'syntaxRegexp'},
	symbol: {color: 'syntaxBuiltIn'},
	subst: {},
	comment: {color: 'syntaxComment', italic: true},
	doctag: {color: 'syntaxComment', bold: true},
	meta: {color: 'syntaxComment'},
	title: {color: 'syntaxFunction'},
	function: {color: 'syntaxFunction'},
	class: {color: 'syntaxType'},
	params: {},
	attr: {color: 'syntaxBuiltIn'},
	attribute: {color: 'syntaxBuiltIn'},
	property: {color: 'syntaxBuiltIn'},
	variable: {color: 'syntaxVariable'},
	'template-variable': {color: 'syntaxVariable'},
	tag: {color: 'syntaxVariable'},
	name: {color: 'syntaxVariable'},
	selector: {color: 'syntaxKeyword'},
	'selector-tag': {color: 'syntaxVariable'},
	'selector-class': {color: 'syntaxType'},
	section: {color: 'syntaxFunction', bold: true},
	bullet: {color: 'syntaxBuiltIn'},
	emphasis: {italic: true},
	strong: {bold: true},
	link: {color: 'syntaxFunction', underline: true},
	quote: {color: 'syntaxComment'},
	addition: {color: 'diffAdded'},
	deletion: {color: 'diffRemoved'},
};

/** Whether highlight.js knows the language (a name or an alias); the label shows it either way. */
function knownLanguage(language: string): boolean {
	return language !== '' && lowlight.registered(language);
}

/** The code's lines, each as styled pieces, tabs expanded: highlighted when the language is known. */
export function highlightLines(code: string, language: string): Row[] {
	const expanded = expandTabs(code);
	const lines: Row[] = [[]];
	const add = (text: string, style: Style) => {
		const parts = text.split('\n');
		for (const [index, part] of parts.entries()) {
			if (index > 0) lines.push([]);
			if (part !== '') lines.at(-1)!.push({text: part, style});
		}
	};

	if (!knownLanguage(language)) {
		add(expanded, {});
		return lines;
	}

	let tree: Root;
	try {
		tree = lowlight.highlight(language, expanded);
	} catch {
		// A grammar that gives up on odd input leaves the code plain, never unreadable.
		add(expanded, {});
		return lines;
	}

	const walk = (nodes: readonly ElementContent[], style: Style) => {
		for (const node of nodes) {
			if (node.type === 'text') add(node.value, style);
			else if (node.type === 'element') walk(node.children, {...style, ...scopeStyle(node.properties.className)});
		}
	};

	walk(tree.children as ElementContent[], {});
	return lines;
}

function scopeStyle(className: unknown): Style {
	if (!Array.isArray(className)) return {};
	for (const name of className) {
		if (typeof name !== 'string' || !name.startsWith('hljs-')) continue;
		const style = SCOPES[name.slice(5)];
		if (style) return style;
	}

	return {};
}

/** A code line longer than the row, cut between graphemes into rows of at most `width` columns (code never breaks at words). */
export function breakCodeLine(line: Row, width: number): Row[] {
	const rows: Row[] = [[]];
	let used = 0;
	for (const fragment of line) {
		const fragmentWidth = widthOf(fragment.text);
		if (used + fragmentWidth <= width) {
			rows.at(-1)!.push(fragment);
			used += fragmentWidth;
			continue;
		}

		let text = '';
		for (const grapheme of graphemes(fragment.text)) {
			const graphemeWidth = widthOf(grapheme);
			if (used + graphemeWidth > width && used > 0) {
				if (text !== '') rows.at(-1)!.push({text, style: fragment.style});
				rows.push([]);
				text = '';
				used = 0;
			}

			text += grapheme;
			used += graphemeWidth;
		}

		if (text !== '') rows.at(-1)!.push({text, style: fragment.style});
	}

	return rows;
}
