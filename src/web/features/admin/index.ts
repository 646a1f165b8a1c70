/** The console is reached only through the router's lazy import of console.tsx (its own chunk). */
export {};
