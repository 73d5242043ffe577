/**
 * Commands named by the first word of the command line (`i logo --svg`);
 * any other first word is a flag or part of the -p prompt. Later work adds
 * more here.
 */
export const commandNames = ['logo', 'extensions', 'install', 'uninstall', 'dev', 'dev-local', 'auth', 'mcp', 'rewind'] as const;
