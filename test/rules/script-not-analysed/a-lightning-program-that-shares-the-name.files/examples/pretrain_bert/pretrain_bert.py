import argparse
import pytorch_lightning as pl
from transformers import BertForPreTraining


def main():
    parser = argparse.ArgumentParser()
    parser = pl.Trainer.add_argparse_args(parser)
    args = parser.parse_args()
    trainer = pl.Trainer.from_argparse_args(args)
    trainer.fit(BertForPreTraining.from_pretrained('bert-base-uncased'))


if __name__ == '__main__':
    main()
