/**
 * The --help text, the one source of it: cli.ts prints it for `--help` alone
 * before meow is loaded, and meow is given it (its `help` option) for every
 * other command line. Kept in its own module so `i --help` loads nothing else.
 */
export const helpText = `
  i — a terminal coding agent

  Usage
    $ i                        chat; each line of input is a turn when stdout is not a terminal
    $ i -p TEXT                one turn: print the answer and exit
    $ echo TEXT | i -p         one turn, the prompt read from standard input
    $ i -c                     continue this workspace's latest session (i -p -c TEXT: one more turn of it)
    $ i --resume               pick one of this workspace's sessions to open (/resume in the chat does the same)
    $ i rewind [N]             list the prompts of this workspace's latest session; with N, go back to just before prompt N: the
                               conversation, and the files edit and write changed since (--keep-files, --overwrite); i rewind --help
    $ i logo                   print the logo (--plain, --ascii, --svg): the same as i --runtime logo
    $ i extensions             list the extensions a run here loads, where from, and what each registered; those it refuses, and why
                               (-C DIR, --json, --trust-project, --no-extensions)
    $ i install SPEC           install an extension package with npm (a name, name@version, a tarball or a folder) for this
                               project (.i/settings.json), or with --global for every workspace (-C DIR, --trust-project, --json);
                               --path DIR names the folder, --build runs its build script first
    $ i uninstall NAME         remove an installed extension package (--global, -C DIR, --json)
    $ i dev [DIR] [-- FLAGS]   build the extension package in DIR (its "build" script, else esbuild bundles its entry), open the chat
                               with it loaded, rebuild and reload on each change (--no-watch, --package NAME / -P NAME for a workspace,
                               --local-only); FLAGS are i's own for the chat (-C DIR…); with -p among them, one turn, one build
    $ i dev-local [DIR]        the same, loading no other extension (i dev --local-only): the project's skills and prompts only
    $ i auth check [PROVIDER]  say which credential a run would use (local state only): exit 0 ready, 1 missing, 2 configuration error
    $ i auth login PROVIDER    store an API key, typed without echo (or the first line of stdin), in $I_CONFIG_DIR/auth.json (mode 0600)
    $ i auth logout PROVIDER   remove it from auth.json (environment variables and models.json are untouched); i auth --help
    $ i mcp list | get NAME    the MCP servers a run here starts, each started to show its state and tools; i mcp --help
    $ i mcp add NAME -- CMD …  add an MCP server to .i/settings.json (--global: every workspace; --url URL for a remote one)
    $ i mcp remove NAME        remove it (--global for the global settings)
    $ i mcp login NAME         OAuth login to a remote MCP server that asks for one (i mcp logout NAME forgets its tokens)

  Options
    -p, --print [TEXT]         Run one turn and exit; without TEXT the prompt is read from stdin
    --json                     With -p or in line mode: one JSON event per stdout line
    --config FILE              Model/API config (default: $I_CONFIG_DIR/config.json, ~/.i/config/config.json)
    -C, --cwd DIR              Workspace folder (default: the current folder)
    --session FILE             Save to / resume from this session file (any file: the old $I_DATA_DIR/sessions/ ones too)
    --session-name NAME        Save to / resume <workspace>/.i/sessions/NAME.json (a namespace apart from the chat's sessions)
    -c, --continue             Resume this workspace's latest session (also with -p); with none, a new one starts and says so
    --resume                   Chat screen: start with the picker of this workspace's sessions (type to filter, Enter opens)
    --max-steps N              Model requests one turn may make (default: max_steps in the config, 50)
    --api-key KEY              The API key for the selected provider (config, --provider or --model), this run only; never stored
                               or shown, but other users of this machine can see it in the process list: prefer i auth login
    --provider ID              Use this catalogue provider for this run (over config.json; its first model unless --model)
    --model ID                 Use this catalogue model for this run, or PROVIDER/MODEL (over config.json); works without a config.json
    --list-models              List the model catalogue (providers, models, context, prices, whether each key variable is set) and exit; --json for JSON
    --yolo                     Run every tool without asking for approval
    --dangerously-skip-permissions
                               Same as --yolo
    --permission-mode MODE     Start in this permission mode: default, acceptEdits (workspace edits run without asking),
                               plan (only read-only tools run) or bypassPermissions (same as --yolo)
    --no-logo                  Do not show the logo in the chat screen
    --extension PATH           Load this extension too (repeatable)
    --extensions-dir DIR       Load the extensions in this folder too (repeatable)
    --no-extensions            Load no extensions
    --skill DIR                Search this folder of skills too (repeatable)
    --prompt-template DIR      Find prompt templates (/name) in this folder too (repeatable)
    --trust-project            Load the workspace's own extensions this once without asking
    --no-agents-md             Give the model no AGENTS.md (global, repository root down to the workspace)
    --no-sandbox               Run the model's shell commands outside the sandbox (bubblewrap on Linux: writes only in the
                               workspace and the temporary folder, no network, ~/.ssh and i's config hidden)
    -v, --version              Print the version
    -h, --help                 Print this help

    Each flag may be given once (--extension, --extensions-dir, --skill and --prompt-template collect every value). An unknown flag or a missing or bad value is a usage error (exit 2).
    Extensions may add flags of their own (i extensions lists them); a flag that neither i nor a loaded extension has is a usage error once they loaded.
    After --, every word is part of the prompt, even one that starts with -.
    Sessions: new ones are saved in $I_DATA_DIR/workspaces/<id>/sessions/, named after their first message (/rename NAME renames,
    /fork copies, /clear starts another); -c, --resume, --session and --session-name each choose one: give at most one of them.

  Runtime commands
    $ i --runtime init                  write plugins.json, bindings.json, builtin.json (never overwrites)
    $ i --runtime manifest PROFILE      print a profile's manifest, bindings applied
    $ i --runtime paths -C DIR          the workspace, its ID and the folders and config files read
    $ i --runtime worker NAME           run an official worker (plugins start these themselves)
    $ i --runtime cache-report -C DIR   the prompt cache's observed hit ratio
    $ i --runtime logo                  print the logo (--plain, --ascii, --svg)

  Provider files (DeepSeek's Files channel: provider.json "images": "files" with "provider_operations": true)
    $ i --provider-action list [--remote]       the files this workspace uploaded (its registry); --remote: the account's too
    $ i --provider-action delete ID             delete one on the provider: always asks on the terminal (--yolo does not
                                                answer); without a terminal only with --confirm-delete; never retried
    $ i --provider-action prune                 drop the registry's entries of expired files (local only)
    (each takes -C DIR, --config FILE, --json)

  Exit codes
    0 done · 1 the turn failed · 2 usage or configuration error · 3 start vetoed by a plugin · 130 interrupted

  Environment
    I_CONFIG_DIR I_DATA_DIR I_CACHE_DIR I_RUNTIME_DIR   platform folders (default ~/.i/{config,data,cache,runtime})
    I_EXTENSIONS_DIR                                   more extension folders, :-separated
    NO_COLOR                                           no colours
    I_MARKDOWN=0                                       the chat screen shows answers as the model wrote them, not as Markdown
    I_HYPERLINKS=0|1                                   links as OSC 8 hyperlinks or not, whatever the terminal seems to support
    I_NO_NOTIFY=1                                      the chat screen never rings the bell or sends a notification
`;

/** What `i auth --help` prints. */
export const authHelpText = `
  i auth — credentials for model providers

  Usage
    $ i auth check [PROVIDER]  which credential a run would use for PROVIDER (default: the provider the run selects:
                               --provider, --model, else the config); reads local state only (no request, no token refresh)
    $ i auth login PROVIDER    read an API key from the terminal without echo (Backspace edits, Ctrl-C cancels) or the first
                               line of stdin (printenv KEY | i auth login PROVIDER), and store it in auth.json; for a provider
                               with an extension's OAuth flow, sign in: open the address shown (given to $BROWSER when set),
                               or with --device enter the code shown at the address shown, on any device
    $ i auth logout PROVIDER   remove PROVIDER's entry from auth.json

  Options
    --config FILE              Model/API config whose provider is the selected one (default: $I_CONFIG_DIR/config.json)
    --provider ID              (check) as for a run: the provider to check (PROVIDER is the same)
    --model ID                 (check) as for a run (PROVIDER/MODEL, or a model id): its provider is checked
    --api-key KEY              (check) as for a run: used for the provider the run selects
    --device                   (login, OAuth) the device code flow, for a terminal without a browser
    --no-browser               (login, OAuth) only print the address; $BROWSER is not started
    --json                     One JSON object on stdout

  The order (the first that holds a usable value wins)
    --api-key for the selected provider → $I_CONFIG_DIR/auth.json (an API key, or an OAuth token that has not expired or
    that the provider's OAuth flow can refresh)
    → the variable models.json names → the variable the provider declares (api_key_env in today's configs)
    → no key, for a provider that explicitly allows it. Blank values, unset variables and expired tokens do not count.

  Exit codes
    check: 0 ready · 1 missing credentials · 2 configuration error (unknown provider, broken auth.json or config)
    login, logout: 0 done · 1 the OAuth sign-in failed · 2 usage or configuration error · 130 cancelled
`;

export const mcpHelpText = `
  i mcp — Model Context Protocol servers

  Usage
    $ i mcp list               each server a run here starts (.i/settings.json, .mcp.json, $I_CONFIG_DIR/settings.json),
                               started to show its state, transport, tools, prompts and resources, then stopped
    $ i mcp get NAME           one server in full: its command or URL, its tools and prompts, its last error
    $ i mcp add NAME -- COMMAND ARGS…
                               add a stdio server (its environment: PATH, HOME and i's folders, plus --env KEY=VALUE)
    $ i mcp add NAME --url URL [--header "Authorization: Bearer \${TOKEN}"] [--transport sse]
                               add a remote server: Streamable HTTP, falling back to the legacy SSE transport
    $ i mcp remove NAME        remove a server from the settings file
    $ i mcp login NAME         log in to a remote server that asks for OAuth: prints the address to open (and gives it to
                               $BROWSER when set), waits up to 5 minutes for the redirect to http://127.0.0.1:PORT/callback;
                               the tokens go to $I_CONFIG_DIR/mcp-auth.json (mode 0600), bound to the server's URL
    $ i mcp logout NAME        forget the tokens stored for a server (it is "needs login" again)

  Options
    -C, --cwd DIR              Workspace folder (default: the current folder)
    -g, --global               add/remove: $I_CONFIG_DIR/settings.json (every workspace) instead of the project's .i/settings.json
    --env KEY=VALUE            add: a variable of the server's environment (repeatable; \${VAR} is read from i's at start)
    --header "K: V"            add: a request header of a remote server (repeatable; \${VAR} as for --env)
    --timeout SECONDS          add: how long a call may take (default 60; "startTimeout" in the file bounds the start)
    --sandbox                  add: run the server in the sandbox ("sandbox": true): it writes only the temporary folder,
                               and its network is off; "allowWrite" in the file gives it more folders
    --force                    add: replace a server of that name
    --trust-project            list/get/login: use the project's servers though the workspace was not trusted before
    --json                     One JSON object on stdout

  A remote server that asks for an OAuth login nobody made shows "needs login" (list, get, /mcp, the session's one
  notice); a session goes on without its tools and never opens a browser. Project servers (.i/settings.json, .mcp.json)
  start only in a trusted workspace. Exit codes: 0 done · 1 a server failed to start (list, get), a login failed or timed
  out · 2 usage or configuration error
`;

/** What --help prints: the text without its surrounding blank lines. meow keeps `help` as `\n` + text + `\n`. */
export function helpOutput(text: string): string {
	return `${text.trim()}\n`;
}

export const rewindHelpText = `
  i rewind — go back to before one of a session's prompts (the chat screen's /rewind, or Esc twice)

  Usage
    $ i rewind                 list the session's prompts, numbered, oldest first, with when each was sent
    $ i rewind N               cut the conversation to just before prompt N and put back the files that edit and write changed
                               since; when one was changed since by anything else, nothing changes and it is named

  Options
    -C, --cwd DIR              Workspace folder (default: the current folder)
    --session FILE             This session file instead of the workspace's latest session
    --session-name NAME        <workspace>/.i/sessions/NAME.json instead of the workspace's latest session
    --keep-files               Rewind the conversation only; the files stay as they are
    --overwrite                Restore files changed since by something else too (what they hold is kept in file history)
    --json                     One JSON object on stdout

  Files come back only where edit or write changed them (not a shell command's changes). Their earlier contents are kept in
  the workspace's state folder, at most 200 MB a workspace, the oldest dropped first. Extensions are not loaded, so their
  SessionBeforeTree gate is not asked; /rewind in the chat screen asks it. A session open in another i is not rewound.
  Exit codes: 0 done · 1 nothing changed because a file was changed outside, or a file could not be restored · 2 usage
  error, no such session or prompt
`;
