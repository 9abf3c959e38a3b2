import typer

app = typer.Typer()


@app.command()
def main(output_dir: str = "out", bf16: bool = False):
    pass


if __name__ == "__main__":
    typer.run(main)
