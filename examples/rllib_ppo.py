"""Self-play PPO with Ray RLlib on the multi-agent environment, with several env runners.

Every seat of :class:`carcassonne.rllib.CarcassonneMultiAgentEnv` maps to one shared
policy (self-play); RLlib's action-masking RL module reads the masks. The env runners
are Ray actors: on a local machine ``ray.init()`` starts a local cluster; with
``--address auto`` (or ``ray://host:10001``) the same script trains on a running
multi-machine cluster, with as many ``--env-runners`` as it has CPUs.

Run: ``python examples/rllib_ppo.py --iterations 5 --env-runners 2``
"""

from __future__ import annotations

import argparse
import time

import ray
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule
from ray.tune.registry import register_env

from carcassonne.rllib import CarcassonneMultiAgentEnv


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=5)
    parser.add_argument("--env-runners", type=int, default=2)
    parser.add_argument("--address", default=None, help="a running Ray cluster (default: start a local one)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--window", type=int, default=24)
    parser.add_argument("--batch", type=int, default=1024, help="environment steps per iteration")
    args = parser.parse_args()

    if args.address:
        ray.init(address=args.address)
    else:
        ray.init(num_cpus=max(2, args.env_runners + 1), include_dashboard=False, log_to_driver=False)
    register_env("carcassonne", lambda cfg: CarcassonneMultiAgentEnv(cfg))
    env_config = {"players": args.players, "window": args.window, "preset": "compact", "reward": "score-diff"}
    config = (
        PPOConfig()
        .environment("carcassonne", env_config=env_config)
        .env_runners(num_env_runners=args.env_runners, num_cpus_per_env_runner=1)
        .multi_agent(policies={"shared"}, policy_mapping_fn=lambda agent_id, episode, **kw: "shared")
        .rl_module(
            rl_module_spec=MultiRLModuleSpec(
                rl_module_specs={
                    "shared": RLModuleSpec(
                        module_class=ActionMaskingTorchRLModule,
                        model_config={"fcnet_hiddens": [128], "head_fcnet_hiddens": [64]},
                    )
                }
            )
        )
        .training(train_batch_size_per_learner=args.batch, minibatch_size=256, num_epochs=1, lr=3e-4)
    )
    algo = config.build_algo()
    start = time.monotonic()
    for i in range(args.iterations):
        result = algo.train()
        runners = result.get("env_runners", {})
        print(
            f"iteration {i + 1}: {runners.get('num_env_steps_sampled_lifetime', 0)} env steps, "
            f"{runners.get('num_episodes_lifetime', 0)} episodes, "
            f"mean return per agent {runners.get('agent_episode_returns_mean', {})}, "
            f"{time.monotonic() - start:.0f} s",
            flush=True,
        )
    algo.stop()
    ray.shutdown()


if __name__ == "__main__":
    main()
