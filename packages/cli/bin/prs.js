#!/usr/bin/env node
// The built CLI (npm run build → dist/). In this repository the tests run src/main.ts through tsx.
import { main } from "../dist/cli/src/main.js";

process.exitCode = await main(process.argv.slice(2));
