import { Request } from 'express';

export function handler(req: Request): string {
  return req.path;
}

export const double = (n: number) => n * 2;
