"""Trains examples/train/digits_cnn.tg with `tcc run` and checks the result.

The CNN has a symbolic batch, so `--batches` runs every image of each epoch
(44 batches of 32 and a short one of 29 over the 1437 training images),
shuffled per epoch; `--history` keeps the loss of every step. The check:
the history has a loss per step, the last epoch's mean loss is under a
quarter of the first's, and the trained model classifies at least
MIN_ACCURACY of the 360 test images. Usage:
check_digits_cnn.py TCC DIGITS.npz WORKDIR [EPOCHS] [MIN_ACCURACY]
(DIGITS.npz as make_digits.py writes it).
"""
import os
import subprocess
import sys

import numpy as np


def main() -> None:
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    tcc, digits, work = sys.argv[1:4]
    epochs = int(sys.argv[4]) if len(sys.argv) > 4 else 10
    min_accuracy = float(sys.argv[5]) if len(sys.argv) > 5 else 0.9
    graph = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                         "digits_cnn.tg")
    os.makedirs(work, exist_ok=True)
    d = np.load(digits)
    path = lambda name: os.path.join(work, name)
    np.savez(path("train.npz"), x=d["x_train"], y=d["y_train"])
    np.save(path("lr.npy"), np.float32(0.3))
    np.save(path("x_test.npy"), d["x_test"])
    np.save(path("y_test.npy"), d["y_test"])
    rows, batch = len(d["x_train"]), 32
    steps_per_epoch = -(-rows // batch)  # the short last batch runs too
    steps = epochs * steps_per_epoch
    subprocess.run([tcc, "run", graph, "--no-cache", "--function=train_step",
                    "--batches=" + path("train.npz"), f"--batch-size={batch}",
                    "--shuffle=1", "--input=lr=" + path("lr.npy"),
                    f"--repeat={steps}", "--history=loss",
                    "--output-dir=" + path("out"),
                    "--save-shared=" + path("trained.npz")], check=True)
    loss = np.load(path("out/loss.history.npy"))
    if loss.shape != (steps,):
        sys.exit(f"the history has {loss.shape}, expected ({steps},)")
    first = float(loss[:steps_per_epoch].mean())
    last = float(loss[-steps_per_epoch:].mean())
    print(f"mean loss: epoch 1 {first:.3f}, epoch {epochs} {last:.3f}")
    if not last < first / 4:
        sys.exit("the loss did not fall to a quarter")
    subprocess.run([tcc, "run", graph, "--no-cache", "--function=correct",
                    "--shared=" + path("trained.npz"),
                    "--input=x=" + path("x_test.npy"),
                    "--input=y=" + path("y_test.npy"),
                    "--output-dir=" + path("eval")], check=True)
    accuracy = int(np.load(path("eval/count.npy"))) / len(d["x_test"])
    print(f"test accuracy: {accuracy:.3f} (at least {min_accuracy})")
    if accuracy < min_accuracy:
        sys.exit("the accuracy is too low")


if __name__ == "__main__":
    main()
