/** What the engine supports on the wire: chains (CAIP-2) and their assets (CAIP-19) (docs/api.md: API behaviour). */
import { z } from 'zod';
import { BlockchainAssetId, BlockchainId } from './scalars.js';

export const Blockchain = z.object({ id: BlockchainId, name: z.string() }).meta({ id: 'Blockchain' });
export type Blockchain = z.infer<typeof Blockchain>;

export const Asset = z.object({ id: BlockchainAssetId, blockchain: BlockchainId, name: z.string(), symbol: z.string() }).meta({ id: 'Asset' });
export type Asset = z.infer<typeof Asset>;
