/** Skill limits (spec/platform.md §9), each with the spec's number; the boundary passes, one past is an error. */

/** Skills (folders with a SKILL.md) in one root. */
export const MAX_SKILLS_PER_ROOT = 100;
/** Directory entries read from one root. */
export const MAX_ROOT_ENTRIES = 1000;
/** Bytes of a SKILL.md and of any file skill_read returns. */
export const MAX_SKILL_FILE_BYTES = 64_000;
/** Characters of a skill's name, each of [A-Za-z0-9_-]. */
export const MAX_NAME_CHARS = 64;
/** Characters (code points) of a skill's description. */
export const MAX_DESCRIPTION_CHARS = 1024;

/** The file that makes a folder a skill. */
export const SKILL_FILE = 'SKILL.md';

/**
 * How far a SKILL.md's YAML aliases may expand, by the yaml package's count
 * (`maxAliasCount`: its anchor counts one, and an alias of a node holding
 * aliases counts as all of them); `i`'s own bound against an alias bomb.
 */
export const MAX_YAML_ALIAS_COUNT = 100;
