/** Express adapter (issue 5). */
export {};
