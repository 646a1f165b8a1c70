// `node --import ./tests/support/record-imports.mjs …`: appends every module specifier the
// process resolves, with the file it resolved to, to RECORD_IMPORTS_FILE (one tab-separated line
// each). The built-store test (src/server/built-store.test.ts) starts the built store with it to
// see that every package the server loads with import() really loads from the bundle.
import { register } from "node:module";

const file = process.env.RECORD_IMPORTS_FILE;
if (file) register("./record-imports-hooks.mjs", import.meta.url, { data: { file } });
