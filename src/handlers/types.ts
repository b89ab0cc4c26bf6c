// A handler per operationId; generated/operations.ts lists the operations, and
// src/handlers/index.ts must fill every one of them or tsc fails.
import type { Request, Response } from 'express';
import type { OperationId } from '../../generated/operations.ts';
import type { AppContext } from '../context.ts';
import type { AppServices } from '../services.ts';

/** What a handler receives besides the request: the context and the services built at start. */
export interface HandlerContext extends AppContext {
  services: AppServices;
}

export type Handler<Op extends OperationId> = (req: Request, res: Response, ctx: HandlerContext) => void | Promise<void>;
export type { OperationId };
