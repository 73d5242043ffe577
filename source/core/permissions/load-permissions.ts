import {parseRule, ruleLists, RuleError, type PermissionRule, type RuleContext} from './parse-rule.js';
import type {RuleFile, RuleSource} from './rule-files.js';

/** A parsed rule and whose file it came from. */
export type SourcedRule = PermissionRule & {source: RuleSource};

/** Every rule of the files parsed, and one message for each that cannot be used, naming the file, the rule and why. */
export function compileRules(files: readonly RuleFile[], context: RuleContext): {rules: SourcedRule[]; problems: string[]} {
	const rules: SourcedRule[] = [];
	const problems: string[] = [];
	for (const file of files) {
		for (const list of ruleLists) {
			for (const [index, text] of file.lists[list].entries()) {
				try {
					rules.push({...parseRule(text, list, file.path, context), source: file.source});
				} catch (error) {
					if (!(error instanceof RuleError)) throw error;
					problems.push(`${file.path}: permissions.${list}[${index}] ${JSON.stringify(text)}: ${error.message}`);
				}
			}
		}
	}

	return {rules, problems};
}
