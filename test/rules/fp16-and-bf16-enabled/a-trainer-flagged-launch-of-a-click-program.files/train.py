import click


@click.command()
@click.option("--output_dir")
@click.option("--bf16", is_flag=True)
def main(output_dir, bf16):
    pass


main()
