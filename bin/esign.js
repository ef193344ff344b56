#!/usr/bin/env node
import '../dist/esign.js';
