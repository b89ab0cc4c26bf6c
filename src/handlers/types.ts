// A handler per operationId; generated/operations.ts lists the operations, and
// src/handlers/index.ts must fill every one of them or tsc fails.
import type { Request, Response } from 'express';
import type { OperationId } from '../../generated/operations.ts';
import type { AppContext } from '../context.ts';

export type Handler<Op extends OperationId> = (req: Request, res: Response, ctx: AppContext) => void | Promise<void>;
export type { OperationId };
