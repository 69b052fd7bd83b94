#!/usr/bin/env node
import { main } from '../dist/card-sandbox.js';

await main(process.argv);
