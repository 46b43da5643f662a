/** Declarations of `hostile-cases.mjs` for the TypeScript suite. */
import type { HostileCase, HostileProfile, HostileProfileName } from './hostile-case-types.js';

export declare const HOSTILE_KEY: string;
export declare const CHAT_MODEL: string;
export declare const HELD_MODEL: string;
export declare const VENDOR_MODEL: string;
export declare const STORED_ITEM_ID: string;
export declare const HOSTILE_PROFILES: Readonly<Record<HostileProfileName, HostileProfile>>;
export declare const HOSTILE_CASES: readonly HostileCase[];
