#!/usr/bin/env node
// Launcher for the compiled CLI (`npm run build` writes lib/).
import { main } from '../lib/cli/index.js';

await main();
