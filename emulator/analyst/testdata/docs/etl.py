import os
import pandas as pd
from pathlib import Path


class Loader:
    def read(self, path):
        return pd.read_csv(path)


def clean(df):
    return df.dropna()


def main():
    print(clean(Loader().read(Path(os.environ["IN"]))))
