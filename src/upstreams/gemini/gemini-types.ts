/**
 * The wire shapes of Gemini's `generateContent` / `streamGenerateContent`
 * (Google AI Studio and Vertex AI): only the fields the gateway writes or
 * reads, as plain JSON types. Field names and enum values follow the official
 * `@google/genai` client's declarations (`Content`, `Part`, `GenerationConfig`,
 * `GenerateContentResponse`, ...), which mirror the REST reference.
 *
 * @see https://ai.google.dev/api/generate-content
 * @internal
 */

/** Who produced a turn: Gemini knows only these two roles in `contents`. */
export type GeminiRole = 'user' | 'model';

/** Raw bytes inline, base64-encoded (`Part.inlineData`). */
export interface GeminiBlob {
  mimeType: string;
  /** Base64 of the bytes. */
  data: string;
}

/** A file by URI (`Part.fileData`): a Files API URI, a `gs://` URI or an http(s) URL. */
export interface GeminiFileData {
  fileUri: string;
  mimeType?: string;
}

/** A call the model asks for (`Part.functionCall`). `id` is set by Gemini 3, often absent before. */
export interface GeminiFunctionCall {
  name: string;
  args?: Record<string, unknown>;
  id?: string;
}

/** The result of a call, keyed by `name` (and `id` when the call had one). */
export interface GeminiFunctionResponse {
  name: string;
  response: Record<string, unknown>;
  id?: string;
}

/**
 * One part of a turn: exactly one of the data fields is set. `thought` marks
 * reasoning text; `thoughtSignature` (base64) must be sent back in the same
 * part it came in for multi-turn tool use with thinking.
 *
 * @see https://ai.google.dev/gemini-api/docs/thought-signatures
 */
export interface GeminiPart {
  text?: string;
  inlineData?: GeminiBlob;
  fileData?: GeminiFileData;
  functionCall?: GeminiFunctionCall;
  functionResponse?: GeminiFunctionResponse;
  thought?: boolean;
  thoughtSignature?: string;
}

/** One turn of the conversation. */
export interface GeminiContent {
  role?: GeminiRole;
  parts: GeminiPart[];
}

/** Gemini's schema types (OpenAPI 3.0 subset, upper case on the wire). */
export type GeminiSchemaType =
  | 'TYPE_UNSPECIFIED'
  | 'STRING'
  | 'NUMBER'
  | 'INTEGER'
  | 'BOOLEAN'
  | 'ARRAY'
  | 'OBJECT'
  | 'NULL';

/**
 * The OpenAPI-subset `Schema` of `FunctionDeclaration.parameters` and
 * `GenerationConfig.responseSchema`. The int64 counts are strings in the
 * client's types; the REST JSON mapping accepts numbers too.
 */
export interface GeminiSchema {
  type?: GeminiSchemaType;
  format?: string;
  title?: string;
  description?: string;
  nullable?: boolean;
  enum?: string[];
  default?: unknown;
  example?: unknown;
  items?: GeminiSchema;
  minItems?: string | number;
  maxItems?: string | number;
  properties?: Record<string, GeminiSchema>;
  required?: string[];
  minProperties?: string | number;
  maxProperties?: string | number;
  propertyOrdering?: string[];
  minLength?: string | number;
  maxLength?: string | number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  anyOf?: GeminiSchema[];
}

/**
 * A function the model may call. `parameters` (OpenAPI subset) and
 * `parametersJsonSchema` (JSON Schema) are mutually exclusive.
 */
export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  parameters?: GeminiSchema;
  parametersJsonSchema?: unknown;
}

/** A tool entry: the gateway sends function declarations only. */
export interface GeminiTool {
  functionDeclarations: GeminiFunctionDeclaration[];
}

/** `FunctionCallingConfig.mode` values. */
export type GeminiFunctionCallingMode = 'AUTO' | 'ANY' | 'NONE' | 'VALIDATED';

export interface GeminiFunctionCallingConfig {
  mode: GeminiFunctionCallingMode;
  /** Only with mode `ANY` (or `VALIDATED`). */
  allowedFunctionNames?: string[];
}

export interface GeminiToolConfig {
  functionCallingConfig: GeminiFunctionCallingConfig;
}

/** `ThinkingConfig.thinkingLevel` values (Gemini 3 models). */
export type GeminiThinkingLevel = 'MINIMAL' | 'LOW' | 'MEDIUM' | 'HIGH';

/**
 * Thinking controls: `thinkingLevel` for Gemini 3, `thinkingBudget` (tokens;
 * 0 off, -1 dynamic) for Gemini 2.5. `includeThoughts` returns thought
 * summaries as parts with `thought: true`.
 */
export interface GeminiThinkingConfig {
  includeThoughts?: boolean;
  thinkingBudget?: number;
  thinkingLevel?: GeminiThinkingLevel;
}

export interface GeminiGenerationConfig {
  temperature?: number;
  topP?: number;
  topK?: number;
  candidateCount?: number;
  maxOutputTokens?: number;
  stopSequences?: string[];
  seed?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  responseMimeType?: string;
  responseSchema?: GeminiSchema;
  responseJsonSchema?: unknown;
  thinkingConfig?: GeminiThinkingConfig;
}

/** `HarmCategory` / `HarmBlockThreshold` pairs; passed through as the caller wrote them. */
export interface GeminiSafetySetting {
  category: string;
  threshold: string;
}

/** The body of `models/{model}:generateContent` and `:streamGenerateContent`. */
export interface GeminiGenerateContentRequest {
  contents: GeminiContent[];
  systemInstruction?: GeminiContent;
  tools?: GeminiTool[];
  toolConfig?: GeminiToolConfig;
  generationConfig?: GeminiGenerationConfig;
  safetySettings?: GeminiSafetySetting[];
}

/** `Candidate.finishReason` values. */
export type GeminiFinishReason =
  | 'FINISH_REASON_UNSPECIFIED'
  | 'STOP'
  | 'MAX_TOKENS'
  | 'SAFETY'
  | 'RECITATION'
  | 'LANGUAGE'
  | 'OTHER'
  | 'BLOCKLIST'
  | 'PROHIBITED_CONTENT'
  | 'SPII'
  | 'MALFORMED_FUNCTION_CALL'
  | 'IMAGE_SAFETY'
  | 'UNEXPECTED_TOOL_CALL'
  | 'TOO_MANY_TOOL_CALLS'
  | 'IMAGE_PROHIBITED_CONTENT'
  | 'NO_IMAGE'
  | 'IMAGE_RECITATION'
  | 'IMAGE_OTHER'
  | 'CONTINUATION';

/** `PromptFeedback.blockReason` values. */
export type GeminiBlockReason =
  | 'BLOCKED_REASON_UNSPECIFIED'
  | 'SAFETY'
  | 'OTHER'
  | 'BLOCKLIST'
  | 'PROHIBITED_CONTENT'
  | 'IMAGE_SAFETY'
  | 'MODEL_ARMOR'
  | 'JAILBREAK';

export interface GeminiSafetyRating {
  category?: string;
  probability?: string;
  blocked?: boolean;
}

export interface GeminiCandidate {
  content?: GeminiContent;
  /** Absent while a stream is still generating this candidate. */
  finishReason?: GeminiFinishReason;
  finishMessage?: string;
  index?: number;
  safetyRatings?: GeminiSafetyRating[];
}

/** Sent (first stream chunk) when the prompt itself was blocked: then there are no candidates. */
export interface GeminiPromptFeedback {
  blockReason?: GeminiBlockReason;
  blockReasonMessage?: string;
  safetyRatings?: GeminiSafetyRating[];
}

/**
 * Token counts. `candidatesTokenCount` excludes `thoughtsTokenCount` (billed
 * output is their sum); `cachedContentTokenCount` is part of
 * `promptTokenCount`; `toolUsePromptTokenCount` is input billed apart.
 */
export interface GeminiUsageMetadata {
  promptTokenCount?: number;
  cachedContentTokenCount?: number;
  candidatesTokenCount?: number;
  thoughtsTokenCount?: number;
  toolUsePromptTokenCount?: number;
  totalTokenCount?: number;
}

/** A whole answer, or one chunk of `streamGenerateContent?alt=sse`. */
export interface GeminiGenerateContentResponse {
  candidates?: GeminiCandidate[];
  promptFeedback?: GeminiPromptFeedback;
  usageMetadata?: GeminiUsageMetadata;
  modelVersion?: string;
  responseId?: string;
}

/**
 * Google's error envelope (AIP-193): `code` is the HTTP status, `status` the
 * canonical code name (`INVALID_ARGUMENT`, `RESOURCE_EXHAUSTED`, ...).
 *
 * @see https://ai.google.dev/gemini-api/docs/troubleshooting
 */
export interface GeminiErrorEnvelope {
  error: {
    code?: number;
    message?: string;
    status?: string;
    details?: unknown[];
  };
}
