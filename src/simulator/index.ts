/** modelgate/testing: the embedded simulator (issue 3). */
export {};
