#!/usr/bin/env node
import '../dist/source/cli.js';
