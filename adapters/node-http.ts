/** node:http adapter (issue 5). */
export {};
