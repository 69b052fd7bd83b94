/** How the CLI counts things in its sentences: `1 customer`, `2 customers`, `3 deliveries`. */
export const count = (n: number, singular: string, plural = `${singular}s`): string => `${n} ${n === 1 ? singular : plural}`;
