/** A count with its noun, singular for exactly one: "1 error", "0 errors", "3 notes". */
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
