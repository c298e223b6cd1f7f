#!/usr/bin/env node
// Launcher for the compiled CLI (`npm run build` writes lib/src/ and lib/conformance/).
import { main } from '../lib/src/cli/index.js';

await main();
