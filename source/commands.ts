/**
 * Commands named by the first word of the command line (`i logo --svg`);
 * any other first word is a flag or part of the -p prompt. Later work adds
 * mcp… here.
 */
export const commandNames = ['logo', 'extensions', 'install', 'uninstall', 'dev', 'dev-local', 'auth'] as const;
