#include "cli.h"

int main(int argc, char **argv)
{
    return al_cli_main(argc, argv);
}
