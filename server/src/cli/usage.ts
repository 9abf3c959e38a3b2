/** The CLI's usage text, and the error that prints a usage mistake and exits 2. */

export const USAGE = `Usage:
  shardwise check [paths… | -] [options]   check config files (folders are searched; - reads stdin)
  shardwise layout <file> [options]        print the parallel layout a config describes; --svg OUT.svg
                                           or --html OUT.html draw it (--colour tp|pp|dp|cp|ep)
  shardwise plan --model <preset | file> --gpus N [--hardware ID] [--seq-length L] [--global-batch B]
                 [--precision bf16|fp8] [--top K] [options]
                                           the best layouts of a model on N GPUs, ranked by an
                                           estimated step time (memory per GPU, tokens/s, MFU); fix
                                           any choice with --tp, --pp, --vpp, --cp, --ep, --etp,
                                           --micro-batch, --sequence-parallel on|off, --recompute
                                           none|selective|full, --sharding none|optimizer|
                                           optim_grads|optim_grads_params, --grad-reduce-in-bf16,
                                           --recompute-layers N (full recompute of N layers per
                                           chunk), --moe-a2a-overlap on|off; --network-gbps G
                                           (network GB/s per GPU), --vocab N, --fp8-dispatch,
                                           --dispatcher flex|alltoall (MoE tokens: DeepEP's one
                                           copy per remote node, the default, or one per expert),
                                           --unfused-attention, --grouped-gemm (MoE experts as
                                           one device-side kernel); --explain says
                                           where the first layout's time goes and what the second
                                           needs; "expected" columns: the step × a calibration
  shardwise mfu --config FILE (--step-time S | --log TRAIN.LOG) [--gpus N] [options]
                                           model FLOPs per step, achieved TFLOP/s per GPU and MFU
  shardwise explain <rule-id>              print a rule's documentation
  shardwise rules                          list the rules
  shardwise docs [--write F|--check F]     print (write, or compare with F) the rules reference

Options of check:
  --output-format FORMAT     text (default), full (text with each finding's lines and carets
                             under its range), json (with every fix's edits and applicability),
                             sarif (SARIF 2.1.0, for code scanning), github (workflow commands:
                             annotations on a pull request), gitlab (GitLab Code Quality) or junit
                             (JUnit XML); --format is the same option
  --select IDS               run only these rules (comma-separated rule ids, prefixes ending in -
                             such as deepspeed- for a family, or ALL); replaces the
                             configuration's select
  --extend-select IDS        run these rules too
  --ignore IDS               do not run these rules (after select and extend-select)
  --statistics               print the number of findings per rule instead of the findings
                             (text, or json with --output-format json)
  --exit-zero                exit 0 even when an error was found
  --max-warnings N           exit 1 when more than N warnings were found
  --show-info                also print notes and hints (text and GitHub annotations print
                             errors and warnings unless asked; the other formats print all)
  --min-severity LEVEL       print findings down to LEVEL (error, warning, information, hint),
                             in every format
  -q, --quiet                print the findings and nothing else (no summary, no notices)
  --color WHEN               colour the text output: auto (default: a terminal, unless NO_COLOR
                             is set; FORCE_COLOR colours a pipe too), always or never
  --hardware ID              hardware profile (e.g. h100-sxm)
  --gpus-per-node N          GPUs per node
  --nvlink-domain N          GPUs per NVLink domain
  --target TOOL=VERSION      targeted version: accelerate=1.10.0, deepspeed=0.16.4, megatron-core=0.12.0
  --fix                      apply the safe fixes (they keep the run as it is) to the files; with -,
                             print the fixed text on stdout (and the findings on stderr)
  --unsafe-fixes             with --fix or --diff, also the fixes that change a decision
                             (degrees, batch sizes, precision, switches, the number of GPUs)
  --diff                     print the unified diff of what --fix would write; change nothing
                             (exit 1 when there is a diff)
  --show-fixes               list the fixes offered for each finding, safe or unsafe
  --stdin-filename PATH      the name of the text read from - (stdin): for the format, the
                             configuration and the output; without it the format is told by
                             the content alone
  --exclude PATTERN          skip files and folders matching PATTERN (gitignore syntax, from the
                             working directory; repeatable, comma-separated), on top of the
                             default excludes (hidden folders, node_modules, venv, dist, …);
                             --extend-exclude is the same option
  --force-exclude            apply the excludes to the paths named on the command line too
  --no-respect-gitignore     also check what .gitignore files exclude (--respect-gitignore, the
                             default: skip it, except files the repository tracks)
  --follow                   walk into symbolic links to folders, and check linked files outside
                             the folders named (default: neither, so nothing outside is read or
                             fixed)
  --no-config                ignore .shardwise.yaml and pyproject.toml files
  --config FILE              use this .shardwise.yaml (or pyproject.toml with [tool.shardwise])
                             for every file, instead of those found at or above each
  --max-file-size SIZE       larger files are not read (default 256K for files found in a
                             folder, 1M for files named); SIZE in bytes or with K, M or G
                             (binary: 1MB = 1 MiB = 1048576 bytes), at most 64MB
  --show-settings            print what each file is checked against instead of checking it:
                             its format and why, the release of the tool (a setting, the
                             checkout it runs, the repository's pins, or assumed), the hardware
                             (a setting, the Slurm request, or assumed) and the configuration files
  --verbose                  say on stderr which format each file was read as and why (the
                             keys that speak for it), and for a file that is not read, why not
                             (what rules out each format that came close)

Configuration: .shardwise.yaml, or [tool.shardwise] in pyproject.toml, at or above each file
(select, extend-select, ignore, per-file-ignores, exclude, hardware, target, rules, …); the
options above win over it. A mistake in it (an unknown key, rule id or hardware profile) is an
error: exit 2, nothing checked.

Only regular files are read: a named device, FIFO or socket is an error; in a folder, such
entries are skipped. Control characters in paths and messages are printed escaped (\\x1b, \\n).

Exit status: 0 no error found, 1 an error found (or more warnings than --max-warnings), 2 usage,
configuration or I/O failure.
`;

/** A mistake in how the command was called: said on stderr, exit status 2. */
export class UsageError extends Error {}
