/** How the console writes a tax rate; here so the orders pages need not load the tax-rates chunk. */

/** 825 basis points → "8.25 %". */
export const percentOf = (basisPoints: number): string => `${(basisPoints / 100).toLocaleString("en-US", { maximumFractionDigits: 2 })} %`;
