/**
 * Finds the request fields that use an account-held feature without any
 * beta (newer API versions take some of them as they are): a file by id,
 * `mcp_servers`, a `container`, a code execution tool. The request schemas
 * are loose (unknown fields pass through to the vendor), so these are looked
 * for by name, in each interface's own shape.
 *
 * @internal
 */
import { type AccountFeature, ACCOUNT_FEATURES } from './account-features.js';

/** Which interface's body is read. */
export type RequestShape = 'messages' | 'chat' | 'responses';

/** The body shape of a model call endpoint (`messages`, `chat.completions`, `responses.create`, ...). */
export function requestShapeOf(endpoint: string): RequestShape {
  if (endpoint === 'chat.completions') return 'chat';
  return endpoint.startsWith('responses.') ? 'responses' : 'messages';
}

/** One use of an account-held feature in a request body. */
export interface AccountResourceUse {
  readonly feature: AccountFeature;
  /** The field, as a dotted path (`messages.0.content.1.source`). */
  readonly param: string;
  /** What the field holds, for the message (`a file id`). */
  readonly holds: string;
  /** What the caller can send instead. */
  readonly instead: string;
}

type Allows = (feature: AccountFeature) => boolean;

const FILE_BY_ID = { feature: ACCOUNT_FEATURES.files, holds: 'a file by id', instead: 'send the file inline (base64 data) or by URL' } as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The first field of `body` that uses a feature `allows` refuses, or undefined. */
export function findAccountResourceUse(body: Readonly<Record<string, unknown>>, shape: RequestShape, allows: Allows): AccountResourceUse | undefined {
  if (shape === 'messages') return messagesUse(body, allows);
  if (!allows(ACCOUNT_FEATURES.files)) return shape === 'chat' ? chatFileUse(body) : responsesFileUse(body);
  return undefined;
}

function messagesUse(body: Readonly<Record<string, unknown>>, allows: Allows): AccountResourceUse | undefined {
  if (!allows(ACCOUNT_FEATURES.mcpConnector) && body.mcp_servers !== undefined) {
    return { feature: ACCOUNT_FEATURES.mcpConnector, param: 'mcp_servers', holds: 'MCP servers for the vendor to connect to', instead: 'remove `mcp_servers` and call the MCP tools from your client' };
  }
  if (!allows(ACCOUNT_FEATURES.codeExecution)) {
    if (body.container !== undefined) {
      return { feature: ACCOUNT_FEATURES.codeExecution, param: 'container', holds: 'a container on the vendor account', instead: 'remove `container`' };
    }
    if (Array.isArray(body.tools)) {
      const index = body.tools.findIndex((tool) => isRecord(tool) && typeof tool.type === 'string' && tool.type.startsWith('code_execution_'));
      if (index !== -1) return { feature: ACCOUNT_FEATURES.codeExecution, param: `tools.${index}`, holds: 'the vendor’s code execution tool', instead: 'remove the tool' };
    }
  }
  if (!allows(ACCOUNT_FEATURES.files) && Array.isArray(body.messages)) return messagesFileUse(body.messages);
  return undefined;
}

/**
 * A file source (`{type:'file', file_id}` in an image or document) or a
 * `container_upload` block, in the messages' blocks and the blocks nested in
 * them (tool results, `content` document sources). Iterative: nesting depth
 * costs no stack.
 */
function messagesFileUse(messages: readonly unknown[]): AccountResourceUse | undefined {
  const pending: Array<{ blocks: readonly unknown[]; path: string }> = [];
  messages.forEach((message, index) => {
    if (isRecord(message) && Array.isArray(message.content)) pending.push({ blocks: message.content, path: `messages.${index}.content` });
  });
  // Read in place (no shift): a long conversation stays one linear pass.
  for (let k = 0; k < pending.length; k++) {
    const next = pending[k]!;
    for (let index = 0; index < next.blocks.length; index++) {
      const block = next.blocks[index];
      if (!isRecord(block)) continue;
      const path = `${next.path}.${index}`;
      if (block.type === 'container_upload') return { ...FILE_BY_ID, param: path };
      const source = block.source;
      if (isRecord(source)) {
        if (source.type === 'file') return { ...FILE_BY_ID, param: `${path}.source` };
        if (Array.isArray(source.content)) pending.push({ blocks: source.content, path: `${path}.source.content` });
      }
      if (Array.isArray(block.content)) pending.push({ blocks: block.content, path: `${path}.content` });
    }
  }
  return undefined;
}

/** A chat content part `{type:'file', file:{file_id}}`. */
function chatFileUse(body: Readonly<Record<string, unknown>>): AccountResourceUse | undefined {
  if (!Array.isArray(body.messages)) return undefined;
  for (let i = 0; i < body.messages.length; i++) {
    const content: unknown = (body.messages[i] as { content?: unknown } | null)?.content;
    if (!Array.isArray(content)) continue;
    for (let j = 0; j < content.length; j++) {
      const part: unknown = content[j];
      if (isRecord(part) && part.type === 'file' && isRecord(part.file) && typeof part.file.file_id === 'string') {
        return { ...FILE_BY_ID, param: `messages.${i}.content.${j}.file.file_id` };
      }
    }
  }
  return undefined;
}

/** A Responses `input_file` part with a `file_id`, in a message's content or a tool output. */
function responsesFileUse(body: Readonly<Record<string, unknown>>): AccountResourceUse | undefined {
  if (!Array.isArray(body.input)) return undefined;
  for (let i = 0; i < body.input.length; i++) {
    const item: unknown = body.input[i];
    if (!isRecord(item)) continue;
    for (const field of ['content', 'output'] as const) {
      const parts = item[field];
      if (!Array.isArray(parts)) continue;
      for (let j = 0; j < parts.length; j++) {
        const part: unknown = parts[j];
        if (isRecord(part) && part.type === 'input_file' && typeof part.file_id === 'string') {
          return { ...FILE_BY_ID, param: `input.${i}.${field}.${j}.file_id` };
        }
      }
    }
  }
  return undefined;
}
