import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyze } from '../../server/src/engine';
import { exactRelease, folderPins, imagePins, inRange, pinsIn, rangeReaches, requirement, scriptImages, specBounds } from '../../server/src/engine/pins';
import { RepositoryPins } from '../../server/src/host/pins';

test('requirements: a PEP 508 line of one of the tools, with extras, markers and comments; other packages and unpinned ones are not pins', () => {
  assert.deepEqual(requirement('accelerate==1.6.0'), { tool: 'accelerate', package: 'accelerate', spec: '==1.6.0' });
  assert.deepEqual(requirement('DeepSpeed[autotuning] >= 0.14, < 0.16  ; python_version >= "3.9"  # pinned for the cluster'), { tool: 'deepspeed', package: 'DeepSpeed', spec: '>=0.14,<0.16' });
  assert.deepEqual(requirement('megatron_core==0.8.0'), { tool: 'megatron-core', package: 'megatron_core', spec: '==0.8.0' });
  assert.equal(requirement('torch==2.4.0'), undefined);
  assert.equal(requirement('accelerate'), undefined, 'no version: not a pin');
  assert.equal(requirement('megatron-core @ git+https://github.com/NVIDIA/Megatron-LM.git@core_r0.13.0'), undefined, 'a URL names no release here');
  assert.equal(requirement('accelerate==not a version'), undefined);
});

test('each dependency file: requirements*.txt, pyproject.toml (PEP 621 and Poetry), setup.cfg, setup.py, environment.yml, uv.lock, poetry.lock', () => {
  assert.deepEqual(pinsIn('requirements.txt', '# training\n-r base.txt\ntorch>=2.4\naccelerate==1.6.0\n'), { accelerate: { spec: '==1.6.0', package: 'accelerate', file: 'requirements.txt' } });
  assert.deepEqual(pinsIn('pyproject.toml', '[project]\nname = "x"\ndependencies = ["megatron-core>=0.13,<0.14", "torch"]\n'), { 'megatron-core': { spec: '>=0.13,<0.14', package: 'megatron-core', file: 'pyproject.toml' } });
  assert.equal(pinsIn('pyproject.toml', '[tool.poetry.dependencies]\npython = "^3.10"\naccelerate = "^1.6"\n').accelerate?.spec, '>=1.6,<2');
  assert.equal(pinsIn('pyproject.toml', '[tool.poetry.dependencies]\ndeepspeed = { version = "~0.15.1", optional = true }\n').deepspeed?.spec, '>=0.15.1,<0.16');
  assert.equal(pinsIn('pyproject.toml', '[tool.poetry.dependencies]\nmegatron-core = "^0.13.1"\n')['megatron-core']?.spec, '>=0.13.1,<0.14', "^0.x moves only within 0.x's minor");
  // An extra (`pip install x[deepspeed]`) or a dependency group is what runs that tool's configs.
  assert.equal(pinsIn('pyproject.toml', '[project]\nname = "x"\ndependencies = ["torch"]\n[project.optional-dependencies]\ndeepspeed = ["deepspeed>=0.18.6,<0.19.0", "deepspeed-kernels"]\n').deepspeed?.spec, '>=0.18.6,<0.19.0');
  assert.equal(pinsIn('pyproject.toml', '[dependency-groups]\ntrain = ["accelerate==1.9.0"]\n').accelerate?.spec, '==1.9.0');
  // The Transformers release gates the Trainer's checks of the recipes that drive DeepSpeed.
  assert.deepEqual(pinsIn('requirements.txt', 'transformers==4.44.2\ntrl>=0.12\n'), { transformers: { spec: '==4.44.2', package: 'transformers', file: 'requirements.txt' } });
  assert.equal(pinsIn('pyproject.toml', '[tool.poetry.group.train.dependencies]\ndeepspeed = "0.16.4"\n').deepspeed?.spec, '==0.16.4');
  assert.equal(pinsIn('setup.cfg', '[options]\ninstall_requires =\n    torch\n    deepspeed==0.15.0\n\n[options.extras_require]\n').deepspeed?.spec, '==0.15.0');
  assert.equal(pinsIn('setup.py', 'setup(name="x", install_requires=["torch>=2", "accelerate>=1.2,<1.4"])\n').accelerate?.spec, '>=1.2,<1.4');
  assert.equal(pinsIn('environment.yml', 'name: train\ndependencies:\n  - python=3.11\n  - deepspeed=0.14.4\n  - pip:\n      - accelerate==1.3.0\n').deepspeed?.spec, '==0.14.4');
  assert.equal(pinsIn('environment.yml', 'dependencies:\n  - pip:\n      - accelerate==1.3.0\n').accelerate?.spec, '==1.3.0');
  assert.equal(pinsIn('uv.lock', 'version = 1\n[[package]]\nname = "accelerate"\nversion = "1.6.0"\n[[package]]\nname = "torch"\nversion = "2.6.0"\n').accelerate?.spec, '==1.6.0');
  assert.equal(pinsIn('poetry.lock', '[[package]]\nname = "megatron-core"\nversion = "0.12.1"\n')['megatron-core']?.spec, '==0.12.1');
  assert.deepEqual(pinsIn('pyproject.toml', 'not = [toml'), {}, 'a file that cannot be read pins nothing');
  assert.equal(pinsIn('requirements.txt', 'accelerate==1.5.0 ; sys_platform == "linux"\naccelerate==1.6.0 ; sys_platform == "darwin"\n').accelerate?.spec, '==1.5.0,==1.6.0', 'two specifiers of one file are both kept (their intersection)');
});

test('a folder: a lock file gives what is installed; other files intersect; exact releases that disagree are the range between them; another pin nothing satisfies is no pin', () => {
  const lock = folderPins([
    { name: 'pyproject.toml', text: '[project]\ndependencies = ["accelerate>=1.4"]\n' },
    { name: 'uv.lock', text: '[[package]]\nname = "accelerate"\nversion = "1.6.0"\n' },
  ]);
  assert.equal(lock.accelerate?.spec, '==1.6.0');
  assert.equal(lock.accelerate?.file, 'uv.lock');
  const both = folderPins([
    { name: 'requirements.txt', text: 'deepspeed>=0.14\n' },
    { name: 'setup.py', text: 'install_requires=["deepspeed<0.16"]' },
  ]);
  assert.equal(both.deepspeed?.spec, '>=0.14,<0.16');
  assert.equal(both.deepspeed?.file, 'requirements.txt, setup.py');
  // Two environments, or a submodule's requirements beside the project's (Jetteyc: megatron-core 0.15.1,
  // 0.15.0rc8 and 0.13.0): one of them runs, not the newest release there is.
  assert.equal(folderPins([{ name: 'requirements.txt', text: 'accelerate==1.5.0 ; sys_platform == "linux"\naccelerate==1.6.0 ; sys_platform == "darwin"\n' }]).accelerate?.spec, '>=1.5.0,<=1.6.0');
  assert.equal(folderPins([{ name: 'requirements.txt', text: 'megatron-core==0.15.1\n' }, { name: 'requirements-dev.txt', text: 'megatron-core==0.15.0rc8\nmegatron-core==0.13.0\n' }])['megatron-core']?.spec, '>=0.13.0,<=0.15.1');
  assert.equal(folderPins([{ name: 'requirements.txt', text: 'accelerate>=1.6\n' }, { name: 'setup.py', text: 'install_requires=["accelerate<1.5"]' }]).accelerate, undefined, 'ranges nothing satisfies: no pin');
});

test('specifiers: the one release, the bounds, and whether a range reaches a release', () => {
  assert.equal(exactRelease('==0.8.0'), '0.8.0');
  assert.equal(exactRelease('==0.8.*'), undefined);
  assert.equal(exactRelease('>=0.8'), undefined);
  assert.deepEqual(specBounds('>=0.13,<0.14'), { floor: '0.13', top: { version: '0.14', inclusive: false } });
  assert.deepEqual(specBounds('~=0.13.1'), { floor: '0.13.1', top: { version: '0.14', inclusive: false } });
  assert.deepEqual(specBounds('==1.6.*'), { floor: '1.6', top: { version: '1.7', inclusive: false } });
  assert.deepEqual(specBounds('<=1.5.0,<1.9'), { floor: undefined, top: { version: '1.5.0', inclusive: true } });
  assert.equal(rangeReaches('>=0.13,<0.14', '0.13.5'), true);
  assert.equal(rangeReaches('>=0.13,<0.14', '0.14.0'), false);
  assert.equal(rangeReaches('>=0.13', '0.99.0'), true);
  assert.equal(inRange('>=0.13,<0.14', '0.13.2'), true);
  assert.equal(inRange('>=0.13,<0.14', '0.14.0'), false);
});

test('the host reads the nearest folder that pins each tool, up to the repository root, and the pin changes what is found', () => {
  const repo = mkdtempSync(join(tmpdir(), 'sw-pins-'));
  mkdirSync(join(repo, '.git'));
  mkdirSync(join(repo, 'configs', 'fsdp'), { recursive: true });
  writeFileSync(join(repo, 'requirements.txt'), 'accelerate==1.9.0\ndeepspeed==0.15.0\n');
  writeFileSync(join(repo, 'configs', 'pyproject.toml'), '[project]\nname = "c"\ndependencies = ["accelerate>=1.10"]\n');
  const file = join(repo, 'configs', 'fsdp', 'accelerate.yaml');
  const pins = new RepositoryPins().forFile(file)!;
  assert.equal(pins.accelerate?.spec, '>=1.10', 'the nearer folder wins');
  assert.equal(pins.accelerate?.file, '../pyproject.toml');
  assert.equal(pins.deepspeed?.spec, '==0.15.0', 'a tool the nearer folder does not name comes from further up');
  assert.equal(pins.deepspeed?.file, '../../requirements.txt');
  // Not above the repository's root.
  const outside = mkdtempSync(join(tmpdir(), 'sw-pins-out-'));
  writeFileSync(join(outside, 'requirements.txt'), 'accelerate==1.0.0\n');
  mkdirSync(join(outside, 'repo', '.git'), { recursive: true });
  assert.equal(new RepositoryPins().forFile(join(outside, 'repo', 'accelerate.yaml')), undefined);

  // Accelerate refuses a top-level key it does not know: a pin that excludes the key's release makes it an error that names the pin.
  const text = 'compute_environment: LOCAL_MACHINE\ndistributed_type: FSDP\nnum_processes: 8\nmixed_precision: bf16\nfsdp_config:\n  fsdp_version: 2\nparallelism_config:\n  parallelism_config_dp_shard_size: 4\n  parallelism_config_tp_size: 2\n';
  const found = (spec: string) => analyze({ path: '/p/accelerate.yaml', text }, { pins: { accelerate: { spec, package: 'accelerate', file: 'requirements.txt' } } }).findings.filter((f) => f.code === 'version-unsupported-key');
  const exact = found('==1.9.0');
  assert.equal(exact.length, 1);
  assert.equal(exact[0].severity, 'error');
  assert.match(exact[0].message, /the targeted 1\.9\.0 \(requirements\.txt: accelerate==1\.9\.0\)/);
  // A range none of whose releases has the key: the same error, naming the range.
  const range = found('>=1.6,<1.10');
  assert.equal(range.length, 1);
  assert.equal(range[0].severity, 'error');
  assert.match(range[0].message, /accelerate>=1\.6,<1\.10 \(requirements\.txt\)/);
  // A range with a release that has it: nothing to say.
  assert.deepEqual(found('>=1.9'), []);
  assert.deepEqual(found('>=1.9,<1.11'), []);
});

test('a tool no folder above the file pins takes the repository\'s pin from a folder beside it when every pin of the repository agrees (yandex/YaLM-100B: docker/Dockerfile pins deepspeed==0.6.5), as an assumption; pins that disagree, or a search that stops at its bounds, give none', () => {
  const repo = mkdtempSync(join(tmpdir(), 'sw-pins-wide-'));
  mkdirSync(join(repo, '.git'));
  mkdirSync(join(repo, 'docker'));
  mkdirSync(join(repo, 'megatron_lm', 'examples'), { recursive: true });
  writeFileSync(join(repo, 'docker', 'Dockerfile'), 'FROM nvcr.io/nvidia/pytorch:21.10-py3\nRUN pip install deepspeed==0.6.5\n');
  const file = join(repo, 'megatron_lm', 'examples', 'ds_config.json');
  const pins = new RepositoryPins().forFile(file)!;
  assert.deepEqual(pins.deepspeed, { spec: '==0.6.5', package: 'deepspeed', file: '../../docker/Dockerfile', elsewhere: true });
  // The same release in two folders: the nearer one is named.
  mkdirSync(join(repo, 'megatron_lm', 'env'));
  writeFileSync(join(repo, 'megatron_lm', 'env', 'requirements.txt'), 'deepspeed==0.6.5\n');
  assert.equal(new RepositoryPins().forFile(file)!.deepspeed?.file, '../env/requirements.txt');
  // Another repository inside this one (a submodule) and hidden folders are not this repository's pins.
  mkdirSync(join(repo, 'third_party', 'other', '.git'), { recursive: true });
  writeFileSync(join(repo, 'third_party', 'other', 'requirements.txt'), 'deepspeed==0.14.0\n');
  mkdirSync(join(repo, '.ci'));
  writeFileSync(join(repo, '.ci', 'requirements.txt'), 'deepspeed==0.15.0\n');
  assert.equal(new RepositoryPins().forFile(file)!.deepspeed?.spec, '==0.6.5');
  // A pin that disagrees: which runs the file is not known, so none is taken (the newest is assumed, as without pins).
  mkdirSync(join(repo, 'tests'));
  writeFileSync(join(repo, 'tests', 'requirements.txt'), 'deepspeed>=0.9\n');
  assert.equal(new RepositoryPins().forFile(file), undefined);
  rmSync(join(repo, 'tests'), { recursive: true });
  // So does a folder whose own files disagree (it pins nothing itself: OpenGVLab/InternVideo's requirements.txt and pyproject.toml).
  mkdirSync(join(repo, 'video'));
  writeFileSync(join(repo, 'video', 'requirements.txt'), 'deepspeed==0.6.5\n');
  writeFileSync(join(repo, 'video', 'requirements-new.txt'), 'deepspeed>=0.15.1\n');
  assert.equal(new RepositoryPins().forFile(file), undefined);
  rmSync(join(repo, 'video'), { recursive: true });
  assert.equal(new RepositoryPins().forFile(file)!.deepspeed?.spec, '==0.6.5');
  // A pin above the file still wins over the rest of the repository.
  writeFileSync(join(repo, 'megatron_lm', 'requirements.txt'), 'deepspeed==0.8.0\n');
  assert.deepEqual(new RepositoryPins().forFile(file)!.deepspeed, { spec: '==0.8.0', package: 'deepspeed', file: '../requirements.txt' });
  // Another project's folder (code, package metadata) pins for itself: X-PLUG/mPLUG-DocOwl's TinyChart/pyproject.toml extra is not PaperOwl's.
  const mono = mkdtempSync(join(tmpdir(), 'sw-pins-wide-'));
  mkdirSync(join(mono, '.git'));
  mkdirSync(join(mono, 'TinyChart'));
  mkdirSync(join(mono, 'PaperOwl'));
  mkdirSync(join(mono, 'Other'));
  writeFileSync(join(mono, 'TinyChart', 'pyproject.toml'), '[project]\nname = "tinychart"\n[project.optional-dependencies]\ntrain = ["deepspeed==0.9.5"]\n');
  writeFileSync(join(mono, 'Other', 'requirements.txt'), 'deepspeed==0.9.5\n');
  writeFileSync(join(mono, 'Other', 'train.py'), 'import deepspeed\n');
  assert.equal(new RepositoryPins().forFile(join(mono, 'PaperOwl', 'ds_config.json')), undefined);
  // Such a pin still disagrees with one of a folder of dependency files.
  mkdirSync(join(mono, 'docker'));
  writeFileSync(join(mono, 'docker', 'Dockerfile'), 'RUN pip install deepspeed==0.6.5\n');
  assert.equal(new RepositoryPins().forFile(join(mono, 'PaperOwl', 'ds_config.json')), undefined);
  // A folder of dependency files that is not an environment folder off a folder above the file is another part's
  // (NVIDIA/NeMo-Framework-Launcher's csp_tools/aws/Dockerfile, NeMo's examples/voice_agent/environment.yml).
  const tools = mkdtempSync(join(tmpdir(), 'sw-pins-wide-'));
  mkdirSync(join(tools, '.git'));
  mkdirSync(join(tools, 'csp_tools', 'aws'), { recursive: true });
  mkdirSync(join(tools, 'examples', 'voice_agent'), { recursive: true });
  writeFileSync(join(tools, 'csp_tools', 'aws', 'Dockerfile'), 'RUN pip install deepspeed==0.9.5\n');
  writeFileSync(join(tools, 'examples', 'voice_agent', 'environment.yml'), 'dependencies:\n  - pip:\n    - deepspeed==0.9.5\n');
  assert.equal(new RepositoryPins().forFile(join(tools, 'conf', 'ds_config.json')), undefined);
  // The same under an environment folder off a folder above the file: taken.
  mkdirSync(join(tools, 'conf', 'env'), { recursive: true });
  writeFileSync(join(tools, 'conf', 'env', 'requirements.txt'), 'deepspeed==0.9.5\n');
  assert.equal(new RepositoryPins().forFile(join(tools, 'conf', 'ds_config.json'))!.deepspeed?.file, 'env/requirements.txt');
  // Every text file of a `requirements/` folder is a requirements file (hiyouga/LLaMA-Factory's requirements/deepspeed.txt):
  // its range disagrees with a Dockerfile's release, so neither is taken.
  mkdirSync(join(tools, 'requirements'));
  writeFileSync(join(tools, 'requirements', 'deepspeed.txt'), 'deepspeed>=0.10.0,<=0.18.4\n');
  assert.equal(new RepositoryPins().forFile(join(tools, 'conf', 'ds_config.json')), undefined);
  // A search that stops at a bound cannot say a pin is the only one.
  const lone = mkdtempSync(join(tmpdir(), 'sw-pins-wide-'));
  mkdirSync(join(lone, '.git'));
  mkdirSync(join(lone, 'docker', 'cuda', 'x'), { recursive: true });
  writeFileSync(join(lone, 'docker', 'cuda', 'x', 'Dockerfile'), 'RUN pip install deepspeed==0.6.5\n');
  assert.equal(new RepositoryPins({ folders: 2, depth: 24, ms: 2_000 }).forFile(join(lone, 'ds.json')), undefined);
  assert.equal(new RepositoryPins({ folders: 100, depth: 2, ms: 2_000 }).forFile(join(lone, 'ds.json')), undefined);
  assert.equal(new RepositoryPins().forFile(join(lone, 'ds.json'))!.deepspeed?.spec, '==0.6.5');

  // The release it gives is an assumption: a finding that rests on it is at most a warning that names it.
  const text = '{\n  "train_batch_size": 64,\n  "zero_optimization": { "stage": 3, "cpu_offload_params": true },\n  "aio": { "thread_count": 2 }\n}\n';
  const at = (pin: Record<string, unknown>) => analyze({ path: '/p/ds.json', text }, { pins: { deepspeed: { spec: '==0.6.5', package: 'deepspeed', file: '../docker/Dockerfile', ...pin } } }).findings;
  const warnings = (f: ReturnType<typeof at>) => f.filter((x) => x.severity === 'warning' || x.severity === 'error').map((x) => x.code);
  assert.deepEqual(warnings(at({ elsewhere: true })), [], 'both keys are read by 0.6.5');
  assert.deepEqual(warnings(at({})), []);
  const newer = analyze({ path: '/p/ds.json', text: text.replace('"cpu_offload_params": true', '"cpu_offload_params": true, "stage3_typo_key": 1') }, { pins: { deepspeed: { spec: '==0.8.0', package: 'deepspeed', file: '../docker/Dockerfile', elsewhere: true } } }).findings.filter((x) => x.code === 'unknown-key');
  assert.equal(newer[0]?.severity, 'warning', 'refused by 0.8.0, but only an assumption says 0.8.0 runs it');
  assert.match(newer[0].message, /the only release the repository pins \(\.\.\/docker\/Dockerfile: deepspeed==0\.8\.0, not in a folder above the file/);
});

test('container images: a Dockerfile FROM an NGC image the table knows pins what it ships, unless a dependency file of the folder names the tool; a launch script names its own image', () => {
  const docker = folderPins([{ name: 'Dockerfile', text: 'FROM nvcr.io/nvidia/nemo:24.07 AS base\nRUN pip install -e .\n' }]);
  assert.deepEqual(docker['megatron-core'], { spec: '==0.8.0', package: 'megatron-core', file: 'Dockerfile: nvcr.io/nvidia/nemo:24.07' });
  assert.equal(folderPins([{ name: 'Dockerfile', text: 'FROM nvcr.io/nvidia/nemo:24.07\n' }, { name: 'requirements.txt', text: 'megatron-core==0.9.0\n' }])['megatron-core']?.spec, '==0.9.0');
  assert.deepEqual(folderPins([{ name: 'Dockerfile', text: 'FROM nvcr.io/nvidia/nemo:24.07\nFROM nvcr.io/nvidia/nemo:24.09\n' }]), {}, 'two images that disagree say nothing');
  assert.deepEqual(folderPins([{ name: 'Dockerfile', text: 'ARG TAG\nFROM nvcr.io/nvidia/nemo:${TAG}\n' }]), {}, 'an image tag that is a variable is not known');
  assert.deepEqual(scriptImages('#SBATCH --nodes=2\nsrun --container-image=nvcr.io#nvidia/nemo:24.07 --container-mounts /data:/data bash -c "python train.py"\n'), ['nvcr.io#nvidia/nemo:24.07']);
  assert.deepEqual(scriptImages('enroot import -o nemo.sqsh docker://nvcr.io#nvidia/nemo:24.09\n'), ['docker://nvcr.io#nvidia/nemo:24.09']);
  assert.equal(imagePins(scriptImages('srun --container-image "nvcr.io/nvidia/nemo:24.09" python x.py\n'), 'the container image')['megatron-core']?.spec, '==0.9.0');
});

test('the pip install commands of an install script or a Dockerfile pin (ContextualAI/HALOs install.sh: pip install accelerate==0.33.0), options and requirement files aside; a Dockerfile that pip-installs a tool wins over its image for that tool', () => {
  assert.deepEqual(pinsIn('install.sh', '#!/bin/bash\npip install accelerate==0.33.0\npython -m pip install -U "deepspeed>=0.14,<0.15" torch \\\n  --index-url https://download.pytorch.org/whl/cu121 transformers==4.44.0\npip install -r requirements.txt -e .\n'), {
    accelerate: { spec: '==0.33.0', package: 'accelerate', file: 'install.sh' },
    deepspeed: { spec: '>=0.14,<0.15', package: 'deepspeed', file: 'install.sh' },
    transformers: { spec: '==4.44.0', package: 'transformers', file: 'install.sh' },
  });
  assert.deepEqual(pinsIn('setup_env.sh', 'pip install deepspeed $EXTRA\n'), {}, 'unpinned, or not known');
  assert.deepEqual(folderPins([{ name: 'Dockerfile', text: 'FROM nvcr.io/nvidia/pytorch:24.05-py3\nRUN pip install --no-cache-dir accelerate==1.2.1\n' }]).accelerate, { spec: '==1.2.1', package: 'accelerate', file: 'Dockerfile' });
  // Read by the host like any dependency file: the repository's install script decides the release a config is judged at.
  const repo = mkdtempSync(join(tmpdir(), 'sw-pins-sh-'));
  mkdirSync(join(repo, '.git'));
  mkdirSync(join(repo, 'accelerate_config'));
  writeFileSync(join(repo, 'install.sh'), '#!/bin/bash\npip install accelerate==0.33.0\n');
  const pins = new RepositoryPins().forFile(join(repo, 'accelerate_config', 'fsdp.yaml'))!;
  assert.equal(pins.accelerate?.spec, '==0.33.0');
  const text = 'compute_environment: LOCAL_MACHINE\ndistributed_type: FSDP\nfsdp_config:\n  fsdp_backward_prefetch_policy: BACKWARD_PRE\nnum_machines: 1\nnum_processes: 4\n';
  const found = analyze({ path: join(repo, 'accelerate_config', 'fsdp.yaml'), text }, { pins }).findings.filter((f) => f.code === 'deprecated-key');
  assert.equal(found[0]?.severity, 'information', '0.33 still copies the old key (utils/launch.py@v0.33.0:252-258)');
});
