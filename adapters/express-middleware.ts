/** The shape of an Express middleware, shared by the Express adapter's files. */
import type { NextFunction, Request, Response } from 'express';

/** An Express middleware (no default parameters: Express reads `fn.length`). */
export type ExpressMiddleware = (req: Request, res: Response, next: NextFunction) => void;
