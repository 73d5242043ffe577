import {INSTRUCTIONS_FILE} from '../../core/resources/project-instructions.js';

/**
 * The prompt /init sends as an ordinary turn: the model studies the
 * workspace with its tools and writes or improves AGENTS.md through `write`
 * or `edit`, which ask for approval like any other change.
 */
export const INIT_PROMPT = `Please study this project and write an ${INSTRUCTIONS_FILE} file at the root of the workspace, or improve the one that is there.

${INSTRUCTIONS_FILE} is read into the system prompt of every session an AI coding agent starts here (i, and other agents that read the same file), so it should tell a capable newcomer what they cannot quickly see for themselves:
- what the project is and how its folders are laid out, in a few lines;
- the exact commands to install, build, lint, test (a single test too) and run it;
- the conventions the code follows (language versions, style, naming, error handling, where tests go) and anything the tooling enforces;
- pitfalls: generated files not to edit, slow or flaky steps, environment variables, things that must stay in sync.

How to go about it:
1. Look before you write: read the README, the package or build manifests, CI configuration, lint and formatter settings, and a few representative source and test files. Check commands against those files instead of guessing.
2. If ${INSTRUCTIONS_FILE} exists, read it first and improve it: keep what is still true, correct what is wrong, add what is missing, and do not drop the maintainers' own rules. Say what you changed.
3. Keep it short and specific to this project: about 20 to 60 lines of plain Markdown with short sections and bullet points. No generic advice ("write clean code"), no long prose, nothing the file system already shows plainly.
4. Write the file with one write or edit call, then tell me briefly what it covers.`;
