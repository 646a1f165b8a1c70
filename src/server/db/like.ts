/** A user's text inside a LIKE pattern matches itself: its %, _ and backslash are escaped (Postgres's default escape character). */
export const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);
