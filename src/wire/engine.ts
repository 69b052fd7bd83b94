/** What the engine supports on the wire: chains (CAIP-2) and their assets (CAIP-19) (docs/api.md: API behaviour). */
import { z } from 'zod';

export const Blockchain = z.object({ id: z.string(), name: z.string() }).meta({ id: 'Blockchain' });
export type Blockchain = z.infer<typeof Blockchain>;

export const Asset = z.object({ id: z.string(), blockchain: z.string(), name: z.string(), symbol: z.string() }).meta({ id: 'Asset' });
export type Asset = z.infer<typeof Asset>;
