"""Build hook: the optional compiled line-of-sight kernel (issue 35, docs/architecture.md).

Everything else is in pyproject.toml. ``optional=True``: without a C compiler the install goes
on and hexwar uses its pure-numpy paths (slower, same answers).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "hexwar.model.los._ckernel",
            ["hexwar/model/los/_ckernel.c"],
            optional=True,
        )
    ]
)
