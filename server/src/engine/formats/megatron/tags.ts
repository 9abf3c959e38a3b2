/**
 * The commits NVIDIA/Megatron-LM's release tags (`core_v…`) point at, so that a git submodule pinned at
 * one of them names its release even when it is not checked out (git records only the commit). Read
 * from the tags of https://github.com/NVIDIA/Megatron-LM (`git rev-parse core_vX^{commit}`), up to
 * core_v0.19.0; each row gives the tag and its commit date. A commit that is no tag's (a branch, a
 * fork's) names no release: which tags it follows would need the history, which is not here.
 * Where a pre-release and its release share a commit (core_v0.17.0rc0, core_v0.17.0), the release
 * names it. The beta tag core_v0.7.0.beta is left out.
 */

const TAGS: ReadonlyMap<string, string> = new Map([
  ['38879f8b3f0edc4ed4f50ac2f3271010b12c549f', '0.4.0'], // core_v0.4.0, 2023-12-11
  ['0acc240ebd2877b4ca5f5b471ea7554bbc62c1b9', '0.5.0'], // core_v0.5.0, 2024-02-26
  ['cac60ce4c8203e2ed18912be63d4dd577b46830d', '0.6.0'], // core_v0.6.0, 2024-04-18
  ['a645f89671be698612170539f2089dc15db66a80', '0.7.0'], // core_v0.7.0, 2024-05-30
  ['baf94af3c667248865f23df73b9fb8e2395e6fd0', '0.8.0'], // core_v0.8.0, 2024-08-12
  ['1afee592e85ac7994887eb5f4ef3998f76384333', '0.9.0'], // core_v0.9.0, 2024-10-24
  ['7ee599a25ca15f042c1087176b73ebddb0566d02', '0.10.0'], // core_v0.10.0, 2025-02-17
  ['7c00175e6b24b3cd835d21a9d287c35a07e275b3', '0.11.0rc0'], // core_v0.11.0rc0, 2025-02-20
  ['aa6207e2da6bca789375f591c9124aa408d2509a', '0.11.0'], // core_v0.11.0, 2025-03-14
  ['31f08ca83f4460cd32bacdb367239bc93ec1899d', '0.12.0rc2'], // core_v0.12.0rc2, 2025-04-08
  ['408eb7186a68ba4d30ee6cc8b05b4de6ba702148', '0.12.0rc3'], // core_v0.12.0rc3, 2025-04-14
  ['d580efc68a9f0dbf1945f834f6f6200cd01d3343', '0.12.0'], // core_v0.12.0, 2025-05-06
  ['a845aa7e12b3a117e24c2352b9e3e60bad2e3a17', '0.12.1'], // core_v0.12.1, 2025-05-20
  ['64cb6bd7a155c4e742514ed1024407fb97d0a367', '0.12.2'], // core_v0.12.2, 2025-06-10
  ['3ea68ad6042cc1204386ae9364358f7c4de1bc37', '0.12.3'], // core_v0.12.3, 2025-08-08
  ['d8180ef8ed0bb6f305dcdedf1b27d91304f361a3', '0.13.0rc0'], // core_v0.13.0rc0, 2025-06-27
  ['7da88d74865c3f1a59894173246f26e7b3bf91b9', '0.13.0rc1'], // core_v0.13.0rc1, 2025-07-02
  ['001d15c455caa88fdb495435842f25ae69d2c1c3', '0.13.0rc2'], // core_v0.13.0rc2, 2025-07-02
  ['9b9ea83efb004de4672bffd5daf51bb0b1c661fc', '0.13.0rc3'], // core_v0.13.0rc3, 2025-07-17
  ['ac198fc0d60a8c748597e01ca4c6887d3a7bcf3d', '0.13.0rc4'], // core_v0.13.0rc4, 2025-07-20
  ['c550cf6c41c31cd3ec72e05c25ea0c979f2b6631', '0.13.0'], // core_v0.13.0, 2025-07-25
  ['ea651a3b78b9b0c1dfd83975ff28853e38e5abaa', '0.13.1'], // core_v0.13.1, 2025-08-11
  ['8f4d909a0688ff0b0231fbf4bf0f4dbac0b31d74', '0.14.0rc0'], // core_v0.14.0rc0, 2025-07-06
  ['44fa0ea40d872da798a0d34ed152806652b960b8', '0.14.0rc1'], // core_v0.14.0rc1, 2025-07-13
  ['db41707430bff743f986b5779712c74242b99caa', '0.14.0rc2'], // core_v0.14.0rc2, 2025-07-20
  ['adbab64f8d9025b2659887c4f8640e5b7e0d37df', '0.14.0rc3'], // core_v0.14.0rc3, 2025-07-26
  ['7f7439f543288f50f134e44832069192a3e1d98e', '0.14.0rc4'], // core_v0.14.0rc4, 2025-08-02
  ['d338252b864bf3f24fea0e2f087b73f4f8de7b16', '0.14.0rc5'], // core_v0.14.0rc5, 2025-08-09
  ['d93743a9f11d5d17824b8b49868cc90f2904896f', '0.14.0rc6'], // core_v0.14.0rc6, 2025-08-17
  ['53cad7137aacf56ffc44a8672b9340f560ec6572', '0.14.0rc7'], // core_v0.14.0rc7, 2025-09-04
  ['23e00ed0963c35382dfe8a5a94fb3cda4d21e133', '0.14.0'], // core_v0.14.0, 2025-10-08
  ['c7fd91ac688d8d71c51b0fc75b0cc49492acff15', '0.15.0rc0'], // core_v0.15.0rc0, 2025-08-24
  ['646230727e44e2d295966c45cfad4a9d0f2bf9f5', '0.15.0rc2'], // core_v0.15.0rc2, 2025-09-02
  ['4af25fe80672cb74caf66ee24be0dc5727adb6be', '0.15.0rc3'], // core_v0.15.0rc3, 2025-09-07
  ['1584dca28bc302102ecc07648f8c286213625c5c', '0.15.0rc4'], // core_v0.15.0rc4, 2025-09-11
  ['8479eb35fbca9631acb846c3ad5d868e02214227', '0.15.0rc5'], // core_v0.15.0rc5, 2025-09-19
  ['ce8185cbbe04f38beb74360e878450f2e8525885', '0.15.0rc6'], // core_v0.15.0rc6, 2025-09-26
  ['53008b844f98886a2144c216ecd25952cb2dda58', '0.15.0rc7'], // core_v0.15.0rc7, 2025-10-04
  ['0d7e02bd26d3eb347ad8d1bef625002babfa6df7', '0.15.0'], // core_v0.15.0, 2025-12-05
  ['512da5deb1fdc6ad8135bd07c6277628c4009261', '0.15.1'], // core_v0.15.1, 2026-01-07
  ['45b404c8aa2ff923d1e0a8b0ee8aec45d827cef4', '0.15.2'], // core_v0.15.2, 2026-01-08
  ['309ffca6a40553362d44fd17efc56b772fa1aa44', '0.15.3'], // core_v0.15.3, 2026-02-06
  ['3bec9aa97dda898d16ff5a89bac0ed2b6682b172', '0.16.0'], // core_v0.16.0, 2026-02-26
  ['55ac7082517c3878ae653c07c09c534b8aed49f6', '0.16.1'], // core_v0.16.1, 2026-03-16
  ['9539a12e1b04a68423f57b3eb41d6125161dca24', '0.17.0'], // core_v0.17.0, 2026-04-14
  ['266f1c97dca477ca8b92c16087506da2000b0b84', '0.17.1'], // core_v0.17.1, 2026-05-25
  ['ba7b5ebce12af60627a80985792a1449ce45f46c', '0.18.0'], // core_v0.18.0, 2026-06-22
  ['571370c829ca768fe37244f4e2e7f28d8accc4ab', '0.18.2'], // core_v0.18.2, 2026-07-20
  ['5be9626709af2722333bf54797c954c09edeada3', '0.19.0'], // core_v0.19.0, 2026-08-19
]);

/** Where Megatron-LM is published: a submodule from anywhere else (a fork, a mirror) is not its tags. */
const UPSTREAM = /^(?:https?:\/\/|git@|ssh:\/\/git@)github\.com[:/]NVIDIA\/Megatron-LM(?:\.git)?\/?$/i;

/** The Megatron Core release whose tag is this commit of NVIDIA/Megatron-LM, if any. */
export function megatronTagRelease(url: string, commit: string): string | undefined {
  if (!UPSTREAM.test(url.trim())) return undefined;
  return TAGS.get(commit.toLowerCase());
}
