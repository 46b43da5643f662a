/**
 * Runs the pinned Codex CLI (`@openai/codex`, resolved from node_modules,
 * never from PATH) once in `codex exec` mode against a custom Responses
 * provider, offline: a temporary CODEX_HOME holds a config.toml that
 * defines the provider `modelgate` and turns off everything that would
 * reach another host (update checks, analytics, feedback, remote model
 * lists, WebSockets). Codex runs without approvals or sandbox (the test
 * container has neither landlock nor bubblewrap) and gives up after one
 * attempt so failures are fast.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** The Codex launcher script of the pinned package (it starts the prebuilt native binary). */
export function codexLauncher(): string {
  const packageJson = require.resolve('@openai/codex/package.json');
  return join(dirname(packageJson), 'bin', 'codex.js');
}

export interface RunCodexOptions {
  /** The provider base URL; Codex posts `${baseURL}/responses`. */
  baseURL: string;
  apiKey: string;
  model: string;
  prompt: string;
  /** The working directory of the agent (its workspace root). */
  cwd: string;
  /**
   * Registers `model` in a model catalog (`model_catalog_json`) so that Codex
   * offers `apply_patch` as a `custom` (freeform) tool, as it does for its own
   * models; without it Codex uses fallback metadata for an id it does not
   * know and offers no `apply_patch` at all. Default true.
   */
  modelCatalog?: boolean;
  /** More config.toml text, placed after the generated top-level keys and before the generated tables (top-level keys and whole tables both work). */
  extraConfig?: string;
  /** More `codex exec` arguments, before the prompt. */
  extraArgs?: string[];
  /** Kills codex after this long. Default 30 s. */
  timeoutMs?: number;
}

export interface CodexRun {
  /** The exit code, or null when codex was killed (timeout). */
  code: number | null;
  stdout: string;
  stderr: string;
  /** The final agent message (`--output-last-message`), when codex wrote one. */
  lastMessage?: string;
  timedOut: boolean;
  /** The temporary CODEX_HOME (and HOME) of the run, already deleted: for scrubbing its path from recordings. */
  codexHome: string;
}

/** The env var the generated provider reads its key from. */
export const CODEX_KEY_ENV = 'MODELGATE_API_KEY';

const tomlString = (value: string): string => JSON.stringify(value);

/** The base instructions the catalog entry gives the model (Codex sends them as the first developer message). */
export const CATALOG_INSTRUCTIONS = 'You are Codex, a coding agent. Edit files with the apply_patch tool.';

/**
 * A Codex model catalog (the `model_catalog_json` file) with one entry for
 * `model`: the fields Codex 0.171 requires, and `apply_patch_tool_type:
 * "freeform"`.
 */
export function codexModelCatalog(model: string): { models: Record<string, unknown>[] } {
  return {
    models: [
      {
        slug: model,
        display_name: model,
        base_instructions: CATALOG_INSTRUCTIONS,
        apply_patch_tool_type: 'freeform',
        supported_reasoning_levels: [],
        shell_type: 'shell_command',
        visibility: 'list',
        supported_in_api: true,
        priority: 1,
        support_verbosity: false,
        truncation_policy: { mode: 'bytes', limit: 10_000 },
        experimental_supported_tools: [],
      },
    ],
  };
}

/** The config.toml for one run: the modelgate provider and no other network use. */
export function codexConfig(options: Pick<RunCodexOptions, 'baseURL' | 'model' | 'extraConfig'> & { catalogPath?: string }): string {
  return [
    `model = ${tomlString(options.model)}`,
    'model_provider = "modelgate"',
    ...(options.catalogPath === undefined ? [] : [`model_catalog_json = ${tomlString(options.catalogPath)}`]),
    'approval_policy = "never"',
    'sandbox_mode = "danger-full-access"',
    'check_for_update_on_startup = false',
    '',
    options.extraConfig ?? '',
    '',
    '[analytics]',
    'enabled = false',
    '',
    '[feedback]',
    'enabled = false',
    '',
    '[model_providers.modelgate]',
    'name = "modelgate"',
    `base_url = ${tomlString(options.baseURL)}`,
    `env_key = ${tomlString(CODEX_KEY_ENV)}`,
    'wire_api = "responses"',
    'supports_websockets = false',
    'request_max_retries = 0',
    'stream_max_retries = 0',
    'stream_idle_timeout_ms = 10000',
    '',
  ].join('\n');
}

/** Environment for codex: no inherited OpenAI/Codex settings, a private HOME and CODEX_HOME. */
function codexEnv(home: string, apiKey: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(OPENAI_|CODEX_|AZURE_OPENAI)/.test(name) || name === CODEX_KEY_ENV) continue;
    env[name] = value;
  }
  return {
    ...env,
    HOME: home,
    CODEX_HOME: home,
    [CODEX_KEY_ENV]: apiKey,
    NO_COLOR: '1',
    RUST_LOG: process.env.CODEX_TEST_RUST_LOG ?? 'error',
  };
}

/** Runs `codex exec` once and resolves when it exits (or is killed at `timeoutMs`). */
export async function runCodex(options: RunCodexOptions): Promise<CodexRun> {
  const home = await mkdtemp(join(tmpdir(), 'codex-home-'));
  const lastMessageFile = join(home, 'last-message.txt');
  try {
    const catalogPath = options.modelCatalog === false ? undefined : join(home, 'models.json');
    if (catalogPath !== undefined) await writeFile(catalogPath, JSON.stringify(codexModelCatalog(options.model)));
    await writeFile(join(home, 'config.toml'), codexConfig({ ...options, ...(catalogPath === undefined ? {} : { catalogPath }) }));
    const args = [
      codexLauncher(),
      'exec',
      '--strict-config',
      '--skip-git-repo-check',
      '--ephemeral',
      '--dangerously-bypass-approvals-and-sandbox',
      // The plugin marketplace sync is the last thing that looks up other hosts (github.com, chatgpt.com).
      '--disable',
      'plugins',
      '--color',
      'never',
      '--cd',
      options.cwd,
      '--output-last-message',
      lastMessageFile,
      ...(options.extraArgs ?? []),
      '--',
      options.prompt,
    ];
    // Its own process group: where Node has no process.execve (Node 20) the launcher spawns the native binary as a child, so a timeout kills the whole group.
    const child = spawn(process.execPath, args, { cwd: options.cwd, env: codexEnv(home, options.apiKey), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    }, options.timeoutMs ?? 30_000);
    const code = await new Promise<number | null>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (exitCode) => resolve(exitCode));
    }).finally(() => clearTimeout(timer));
    const lastMessage = await readFile(lastMessageFile, 'utf8').catch(() => undefined);
    return { code, stdout, stderr, timedOut, codexHome: home, ...(lastMessage === undefined ? {} : { lastMessage }) };
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}
