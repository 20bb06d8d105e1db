// SPDX-License-Identifier: MIT
// speedscope-server.js SCRIPT: runs speedscope's importer and its driver
// (SCRIPT, ../shared/oracles/speedscope/speedscope-callgrind.js, left
// as it is) for many files in one node process, as tests/compat.py asks:
// a node started and the bundle compiled once, not once a file.  Each
// line on stdin is a JSON array of the arguments of one run (FILE TOPN
// [parse]); each answer on stdout is what `node SCRIPT ARGS...` prints
// for it, then a NUL (which JSON.stringify never prints).
'use strict';
const fs = require('fs');
const path = require('path');
const util = require('util');
const vm = require('vm');
const { createRequire } = require('module');
const { StringDecoder } = require('string_decoder');

const script = path.resolve(process.argv[2]);
// the wrapper node puts around a CommonJS file: the bundle's top level
// (its driver among it) runs anew in each call, with fresh variables
const bundle = vm.compileFunction(fs.readFileSync(script, 'utf8'),
    ['exports', 'require', 'module', '__filename', '__dirname'], { filename: script });
const bundleRequire = createRequire(script);

// What `node SCRIPT ARGS...` prints.  The importer leaves its call graphs
// in globalThis: removed first, as a process of its own would start
// without them.  Where the run throws, it prints what it printed so far
// (the driver prints last: nothing).
function runOne(args) {
    const argv = process.argv, log = console.log;
    let out = '';
    process.argv = [argv[0], script].concat(args);
    console.log = (...a) => { out += util.format(...a) + '\n'; };
    delete globalThis.__callGraphs;
    delete globalThis.__parseOnly;
    try {
        const module = { exports: {} };
        bundle.call(module.exports, module.exports, bundleRequire, module, script,
            path.dirname(script));
    } catch (e) {
        // node SCRIPT would die here, its stack on stderr
    } finally {
        process.argv = argv;
        console.log = log;
    }
    return out;
}

function writeAll(text) {
    const buf = Buffer.from(text, 'utf8');
    for (let off = 0; off < buf.length;) {
        try {
            off += fs.writeSync(1, buf, off, buf.length - off);
        } catch (e) {
            if (e.code !== 'EAGAIN') throw e;
        }
    }
}

const decoder = new StringDecoder('utf8');
const chunk = Buffer.alloc(1 << 16);
let pending = '';
for (;;) {
    let n;
    try {
        n = fs.readSync(0, chunk, 0, chunk.length, null);
    } catch (e) {
        if (e.code === 'EAGAIN') continue;
        if (e.code === 'EOF') break;
        throw e;
    }
    if (n === 0) break;
    pending += decoder.write(chunk.subarray(0, n));
    for (let nl; (nl = pending.indexOf('\n')) >= 0;) {
        const line = pending.slice(0, nl);
        pending = pending.slice(nl + 1);
        writeAll(runOne(JSON.parse(line)) + '\0');
    }
}
